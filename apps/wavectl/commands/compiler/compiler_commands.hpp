#pragma once
// The compiler family of wavectl subcommands, one file per command.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wavescope/compiler/ir/uop.hpp"

#include "cli_context.hpp"

namespace wavectl {

void register_simplify_command(CLI::App &app, CliContext &context);       // simplify
void register_rewrite_trace_command(CLI::App &app, CliContext &context);  // rewrite-trace info|show
void register_compile_command(CLI::App &app, CliContext &context);        // compile
void register_run_command(CLI::App &app, CliContext &context);            // run

// compile's and run's SOURCE and --kernel, and their help footer (`examples`: one per line).
void add_kernel_source_options(CLI::App &command, std::string &source, std::string &kernel,
                               const std::string &examples);

// compile's and run's --opts LIST | --heuristic | --noopt.
struct OptFlags {
  std::string opts;
  bool heuristic = false, noopt = false;
};
void add_opt_options(CLI::App &command, OptFlags &flags);
// The kernels set up as the flags say (unchanged without a flag: a kernel's own opts_to_apply if
// it carries them, else the heuristic). A malformed LIST is Error(Usage).
std::vector<wavescope::compiler::UOp> with_opt_flags(std::vector<wavescope::compiler::UOp> kernels,
                                                     const OptFlags &flags);

}  // namespace wavectl
