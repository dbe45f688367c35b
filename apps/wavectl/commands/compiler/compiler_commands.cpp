// wavectl's compiler subcommands: simplify, rewrite-trace, compile, run.

#include "commands/compiler/compiler_commands.hpp"
#include "commands/registry.hpp"

namespace wavectl {

void register_compiler_commands(CLI::App &app, CliContext &context) {
  register_simplify_command(app, context);
  register_rewrite_trace_command(app, context);
  register_compile_command(app, context);
  register_run_command(app, context);
}

}  // namespace wavectl
