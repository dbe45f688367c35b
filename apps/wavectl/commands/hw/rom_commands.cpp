// wavectl's rom subcommands. Filled in by the hardware work.

#include "commands/hw/hw_commands.hpp"

namespace wavectl {

void register_rom_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
