// wavectl devices: real ASM24 USB bridges, PCI Navi31 cards and simulated boards. Works with
// none present and without permissions.

#include <iostream>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "table.hpp"
#include "wavescope/hw/device/device_selector.hpp"

namespace wavectl {

void register_devices_commands(CLI::App &app, CliContext &context) {
  auto *cmd = app.add_subcommand("devices",
                                 "List ASM24 USB bridges, PCI Navi31 cards and simulated boards");
  auto root = std::make_shared<std::string>();
  hw_cli::add_sim_root_option(*cmd, *root);
  add_json_flag(*cmd, context);
  cmd->callback([root, &context] {
    const auto devices = wavescope::hw::device::list_devices(hw_cli::sim_root(*root));
    if (context.json) {
      for (const auto &d : devices)
        print_json_line(
            {{"id", d.id}, {"kind", d.kind}, {"state", d.state}, {"description", d.description}});
      return;
    }
    if (devices.empty()) {
      std::cout
          << "no devices: no ASM24 USB bridge, no PCI Navi31 card and no simulated board (create "
             "one with: wavectl sim create NAME --test-image)\n";
      return;
    }
    Table table({"DEVICE", "KIND", "STATE", "DESCRIPTION"});
    for (const auto &d : devices) table.add_row({d.id, d.kind, d.state, d.description});
    std::cout << table.render();
  });
}

}  // namespace wavectl
