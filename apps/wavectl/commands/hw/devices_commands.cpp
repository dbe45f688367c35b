// wavectl devices: real ASM24 USB bridges, PCI Navi31 cards and simulated boards. Works with
// none present and without permissions.

#include <iostream>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/hw/device/device_list_report.hpp"

namespace wavectl {

void register_devices_commands(CLI::App &app, CliContext &context) {
  auto *cmd = app.add_subcommand("devices",
                                 "List ASM24 USB bridges, PCI Navi31 cards and simulated boards");
  auto root = std::make_shared<std::string>();
  hw_cli::add_sim_root_option(*cmd, *root);
  add_json_flag(*cmd, context);
  cmd->callback([root, &context] {
    namespace device = wavescope::hw::device;
    const device::DeviceListReport report{device::list_devices(hw_cli::sim_root(*root))};
    if (report.devices.empty() && !context.json) {
      std::cout
          << "no devices: no ASM24 USB bridge, no PCI Navi31 card and no simulated board (create "
             "one with: wavectl sim create NAME --test-image)\n";
      return;
    }
    print_report(report, context);
  });
}

}  // namespace wavectl
