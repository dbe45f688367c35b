// wavectl am boot|fini|smi --device D: the AM driver's boot (full or partial), fini and AMSMI
// against a device — the fake GPU (sim-am / sim-am-usb) or, untested on hardware, a real GPU
// (then only with --yes). --trace FILE writes the driver's register trace (named from the
// register database) to FILE, also when the command fails.

#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/hw/am_boot_commands.hpp"
#include "commands/hw/hw_cli.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/am_smi.hpp"
#include "wavescope/hw/am/boot_report.hpp"
#include "wavescope/hw/am/firmware_set.hpp"

namespace wavectl {

namespace am = wavescope::hw::am;
using wavescope::Error;
using wavescope::ErrorKind;

am::AmGpuOptions attach_options(am::FirmwareSource &firmware) {
  am::AmGpuOptions o;
  o.attach = true;
  o.firmware = &firmware;
  return o;
}

void add_common(CLI::App &cmd, BootArgs &a, bool writes) {
  hw_cli::add_device_options(cmd, a.device);
  cmd.get_option("--trace")->description(
      "Write the driver's register trace (one line per access, named from the register "
      "database) to FILE");
  if (writes)
    cmd.add_flag("--yes", a.yes,
                 "Confirm writing to a real GPU (untested on hardware; simulators need none)");
  cmd.add_option("--fwdir", a.fwdir,
                 "Firmware directory (<DIR>/amdgpu/<name> or <DIR>/<name>; default: the "
                 "synthetic firmware for a simulator, /lib/firmware for a real GPU)");
}

void with_driver(BootArgs a, const CliContext &ctx, const std::string &command,
                 const std::function<nlohmann::json(wavescope::hw::device::OpenedDevice &,
                                                    am::AmDevice &, am::FirmwareSource &)> &body,
                 bool writes) {
  const bool simulated = a.device.device.starts_with("sim");
  if (writes && !simulated && !a.yes)
    throw Error(ErrorKind::Usage,
                fmt::format("am {} writes to a real GPU (untested on hardware): add --yes to "
                            "confirm (nothing was written)",
                            command));
  const std::string trace_path = a.device.trace;
  a.device.trace.clear();  // the register trace replaces the raw BAR5 trace
  hw_cli::run_on_device(a.device, ctx, "am " + command, {!writes, false},
                        [&](wavescope::hw::device::OpenedDevice &dev) {
                          am::AmDevice device(dev.function(), dev.clock());
                          const auto write_trace = [&] {
                            if (!trace_path.empty())
                              wavescope::write_file_atomically(trace_path, device.trace_text());
                          };
                          const wavescope::OnFailure trace_on_failure(write_trace);
                          std::unique_ptr<am::FirmwareSource> fw;
                          if (!a.fwdir.empty())
                            fw = std::make_unique<am::DirectoryFirmware>(a.fwdir);
                          else if (dev.simulated())
                            fw = std::make_unique<am::SyntheticFirmware>();
                          else
                            fw = std::make_unique<am::DirectoryFirmware>("/lib/firmware");
                          auto summary = body(dev, device, *fw);
                          write_trace();
                          return summary;
                        });
}

void register_am_boot_commands(CLI::App &am_cmd, CliContext &context) {
  auto *boot = am_cmd.add_subcommand(
      "boot", "Boot the GPU as AM does: full, or partial when a previous AM session finished "
              "cleanly (real GPUs: untested on hardware, --yes)");
  auto boot_args = std::make_shared<BootArgs>();
  add_common(*boot, *boot_args, true);
  boot->add_flag("--reset", boot_args->reset, "Never a partial boot (AM_RESET=1)");
  boot->add_option("--power-limit", boot_args->power_limit,
                   "Watts: SetPptLimit and unconstrained clocks (AM_POWER_LIMIT); default: "
                   "every clock at its highest DPM level");
  add_json_flag(*boot, context);
  boot->callback([boot_args, &context] {
    with_driver(
        *boot_args, context, "boot",
        [&](auto &dev, am::AmDevice &device, am::FirmwareSource &fw) {
          am::AmGpuOptions o;
          o.force_reset = boot_args->reset;
          o.power_limit_watts = boot_args->power_limit;
          o.firmware = &fw;
          am::AmGpu gpu(device, o);
          gpu.boot();
          return hw_cli::print_report(am::boot_report(gpu, dev.id(), "boot"), context);
        },
        true);
  });

  auto *fini = am_cmd.add_subcommand(
      "fini", "Finish an AM session: SDMA and GFX down, clocks to level 0, SCRATCH_REG6 = 0 so "
              "the next boot may be partial (real GPUs: untested on hardware, --yes)");
  auto fini_args = std::make_shared<BootArgs>();
  add_common(*fini, *fini_args, true);
  add_json_flag(*fini, context);
  fini->callback([fini_args, &context] {
    with_driver(
        *fini_args, context, "fini",
        [&](auto &dev, am::AmDevice &device, am::FirmwareSource &fw) {
          am::AmGpu gpu(device, attach_options(fw));
          gpu.fini();
          auto report = am::boot_report(gpu, dev.id(), "fini");
          report.allocations.clear();  // attached: the boot's allocations, not this command's
          return hw_cli::print_report(report, context);
        },
        true);
  });

  auto *smi = am_cmd.add_subcommand(
      "smi", "AMSMI: clocks, activity, temperatures, power and VRAM use of a GPU AM booted "
             "(from the SMU metrics table; it messages the SMU: real GPUs untested on hardware, "
             "--yes)");
  auto smi_args = std::make_shared<BootArgs>();
  add_common(*smi, *smi_args, true);
  add_json_flag(*smi, context);
  smi->callback([smi_args, &context] {
    with_driver(
        *smi_args, context, "smi",
        [&](auto &dev, am::AmDevice &device, am::FirmwareSource &fw) {
          am::AmGpu gpu(device, attach_options(fw));
          return hw_cli::print_report(am::am_smi(gpu, dev.id()), context);
        },
        true);
  });
}

}  // namespace wavectl
