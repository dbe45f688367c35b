#pragma once
// Reading a PCI function's sysfs directory (private to the pci module): hex id files, the bound
// driver, the resource table.

#include <array>
#include <filesystem>
#include <optional>
#include <string>

#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw::sysfs {

std::filesystem::path devices_dir(const std::filesystem::path &root);
std::optional<std::string> read_line(const std::filesystem::path &file);
std::optional<std::uint64_t> read_hex(const std::filesystem::path &file);
// The basename of <device>/driver, or nullopt when no driver is bound.
std::optional<std::string> driver_of(const std::filesystem::path &device);
// BAR0-5 from <device>/resource ("start end flags" per line).
std::array<BarInfo, 6> read_resources(const std::filesystem::path &device);
// Writes `text` to a sysfs file as `echo text >` does; throws Error (Device) naming `action`.
void write_file(const std::filesystem::path &file, std::string_view text,
                const std::string &action);

}  // namespace wavescope::hw::sysfs
