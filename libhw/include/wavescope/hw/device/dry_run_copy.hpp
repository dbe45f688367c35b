#pragma once
// A flash write's dry run (`flash write --dry-run`): the device's chip (every sector read twice
// and equal) and status registers are read, a simulated copy is seeded with them in a scratch
// simulator store — in the state a board answering on ROM_SW is in (BRICKED) — and the write
// then runs unchanged on the copy, so it reports what it would do and whether it is refused.
// The device itself is only read.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"

namespace wavescope::hw::device {

// What a dry run copies from the device.
struct DryRunSource {
  std::string device;
  std::vector<std::uint8_t> chip;
  std::string chip_sha256;
  std::uint8_t sr1 = 0, sr2 = 0;
  std::vector<std::string> warnings;  // sectors whose two reads disagreed at first
};

// Throws Refusal(Usage, DryRunCannotResume) for a request that resumes a journalled write.
void check_dry_run_request(const flash::WriteRequest &request);

// Reads the chip and its status registers through `session` (opened and closed here).
DryRunSource read_dry_run_source(flash::FlashSession &session, const std::string &device_id,
                                 const OperationProgressSink &progress = {});

// Creates the board "copy" in the store at `sim_root` and returns the device spec to open it by:
// "sim-pci:copy" for a device reached directly over PCI (pci:, sim-pci:), else "sim:copy" (the
// USB bridge path), so the copy is reached the way the device is.
std::string create_dry_run_copy(const std::filesystem::path &sim_root, std::string_view device_id,
                                std::span<const std::uint8_t> chip, std::uint8_t sr1,
                                std::uint8_t sr2);

// The copy of `source` seeded in `sim_root`, and the request to run on it: confirmed (it is the
// copy that is written), its backup and journal in `sim_root` (thrown away with it).
struct DryRunCopy {
  std::string device_spec;
  flash::WriteRequest request;
};
DryRunCopy prepare_dry_run_copy(const std::filesystem::path &sim_root, const DryRunSource &source,
                                flash::WriteRequest request);

}  // namespace wavescope::hw::device
