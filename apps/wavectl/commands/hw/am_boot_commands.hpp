#pragma once
// wavectl am boot|fini|smi (am_boot_commands.cpp), and what other am verbs share with them: the
// driver's options and running a body with the AM driver on the device.

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "commands/hw/hw_cli.hpp"
#include "commands/registry.hpp"

namespace wavescope::hw::am {
class AmDevice;
class FirmwareSource;
struct AmGpuOptions;
}  // namespace wavescope::hw::am

namespace wavectl {

struct BootArgs {
  hw_cli::DeviceOptions device;
  std::string fwdir;
  bool reset = false, yes = false;
  double power_limit = 0;
};

// --device and its options, --trace as the driver's register trace, --fwdir, and --yes when the
// command writes.
void add_common(CLI::App &cmd, BootArgs &args, bool writes);

// Runs `body` with the AM driver's device object on the opened device (refusing a real GPU
// without --yes when the command writes); writes the register trace at the end, also on failure.
void with_driver(BootArgs args, const CliContext &ctx, const std::string &command,
                 const std::function<nlohmann::json(wavescope::hw::device::OpenedDevice &,
                                                    wavescope::hw::am::AmDevice &,
                                                    wavescope::hw::am::FirmwareSource &)> &body,
                 bool writes);

// The driver attached to a GPU AM booted (software init only, the root page table adopted), as
// fini, AMSMI and the page-table reader run it, with `firmware`.
wavescope::hw::am::AmGpuOptions attach_options(wavescope::hw::am::FirmwareSource &firmware);

void register_am_boot_commands(CLI::App &am, CliContext &context);

}  // namespace wavectl
