#pragma once
// The compiler family of wavectl subcommands, one file per command.

#include <CLI/CLI.hpp>

#include "cli_context.hpp"

namespace wavectl {

void register_simplify_command(CLI::App &app, CliContext &context);       // simplify
void register_rewrite_trace_command(CLI::App &app, CliContext &context);  // rewrite-trace info|show
void register_compile_command(CLI::App &app, CliContext &context);        // compile
void register_run_command(CLI::App &app, CliContext &context);            // run

}  // namespace wavectl
