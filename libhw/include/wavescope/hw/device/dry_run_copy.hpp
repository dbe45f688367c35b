#pragma once
// The simulated copy a flash write's dry run runs on: a board in a scratch simulator store whose
// chip holds what was read from the device and whose status registers are the device's, in the
// state a board answering on ROM_SW is in (BRICKED). The write then runs unchanged on the copy.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace wavescope::hw::device {

// Creates the board "copy" in the store at `sim_root` and returns the device spec to open it by:
// "sim-pci:copy" for a device reached directly over PCI (pci:, sim-pci:), else "sim:copy" (the
// USB bridge path), so the copy is reached the way the device is.
std::string create_dry_run_copy(const std::filesystem::path &sim_root, std::string_view device_id,
                                std::span<const std::uint8_t> chip, std::uint8_t sr1,
                                std::uint8_t sr2);

}  // namespace wavescope::hw::device
