#pragma once
// The compiler family of wavectl subcommands, one file per command.

#include <string>

#include <CLI/CLI.hpp>

#include "cli_context.hpp"

namespace wavectl {

void register_simplify_command(CLI::App &app, CliContext &context);       // simplify
void register_rewrite_trace_command(CLI::App &app, CliContext &context);  // rewrite-trace info|show
void register_compile_command(CLI::App &app, CliContext &context);        // compile
void register_run_command(CLI::App &app, CliContext &context);            // run

// compile's and run's SOURCE and --kernel, and their help footer (`examples`: one per line).
void add_kernel_source_options(CLI::App &command, std::string &source, std::string &kernel,
                               const std::string &examples);

}  // namespace wavectl
