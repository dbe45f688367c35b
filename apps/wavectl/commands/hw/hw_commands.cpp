// wavectl's hardware subcommands, one family per file in this folder.

#include "commands/hw/hw_commands.hpp"

namespace wavectl {

void register_hw_commands(CLI::App &app, CliContext &context) {
  register_devices_commands(app, context);
  register_sim_commands(app, context);
  register_sim_am_commands(app, context);
  register_flash_commands(app, context);
  register_psp_commands(app, context);
  register_rom_commands(app, context);
  register_ifwi_commands(app, context);
  register_am_commands(app, context);
  register_am_queue_commands(app, context);
  register_regs_commands(app, context);
}

}  // namespace wavectl
