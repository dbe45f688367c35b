// wavectl's pmc subcommands. Filled in by the pmc work.

#include "commands/trace/trace_commands.hpp"

namespace wavectl {

void register_pmc_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
