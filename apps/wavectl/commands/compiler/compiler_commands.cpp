// wavectl's compiler subcommands (simplify). Filled in by the compiler work.

#include "commands/registry.hpp"

namespace wavectl {

void register_compiler_commands(CLI::App & /*app*/, CliContext & /*context*/) {}

}  // namespace wavectl
