// wavectl rom dump: the flash through the SMUIO ROM_INDEX/ROM_DATA aperture (navi31-flash.md
// §7.7) — works on a booted board where ROM_SW is gated; restores ROM_CNTL and ROM_INDEX to their
// exact original values; each page read twice; refuses an empty or mirrored dump.

#include <iostream>

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/hw/rom/rom_report.hpp"

namespace wavectl {

void register_rom_commands(CLI::App &app, CliContext &context) {
  auto *rom = app.add_subcommand("rom", "The SMUIO ROM aperture (ROM_INDEX/ROM_DATA)");
  rom->require_subcommand(1);
  auto *cmd =
      rom->add_subcommand("dump", "Read the 2 MiB flash through ROM_DATA into OUT (atomically)");
  auto d = std::make_shared<hw_cli::DeviceOptions>();
  auto output = std::make_shared<std::string>();
  auto once = std::make_shared<bool>(false);
  cmd->add_option("OUT", *output, "Output file")->required();
  cmd->add_flag("--read-once", *once, "Read each page once instead of twice");
  hw_cli::add_device_options(*cmd, *d);
  add_json_flag(*cmd, context);
  cmd->callback([d, output, once, &context] {
    wavescope::CancelToken cancel;
    hw_cli::InterruptScope interrupts(cancel);
    hw_cli::run_on_device(
        *d, context, "rom dump", {true, false}, [&](wavescope::hw::device::OpenedDevice &dev) {
          hw_cli::EtaProgressPrinter progress(!context.quiet, dev.simulated());
          wavescope::hw::rom::RomDumpOptions options;
          options.read_twice = !*once;
          const auto r = wavescope::hw::rom::rom_dump(dev.bar5(), dev.clock(), options,
                                                      progress.sink(), &cancel);
          progress.finish();
          for (const auto &w : r.warnings) std::cerr << "warning: " << w << '\n';
          hw_cli::write_binary_file(*output, r.bytes);
          return hw_cli::print_report(
              wavescope::hw::rom::RomDumpReport{dev.id(), *output, r, dev.bar5().stats()}, context);
        });
  });
}

}  // namespace wavectl
