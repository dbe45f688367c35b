// wavectl's sqtt subcommands. Filled in by the sqtt work.

#include "commands/trace/trace_commands.hpp"

namespace wavectl {

void register_sqtt_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
