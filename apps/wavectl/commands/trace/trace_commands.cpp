// wavectl's trace subcommands (sqtt ..., pmc). Filled in by the trace work.

#include "commands/registry.hpp"

namespace wavectl {

void register_trace_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
