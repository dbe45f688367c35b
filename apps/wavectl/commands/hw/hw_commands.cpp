// wavectl's hw subcommands (devices, sim, flash, psp, rom, ifwi). Filled in by the hw work.

#include "commands/registry.hpp"

namespace wavectl {

void register_hw_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
