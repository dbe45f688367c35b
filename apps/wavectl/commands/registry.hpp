#pragma once
// Each library area registers its own family of wavectl subcommands.

#include <CLI/CLI.hpp>

#include "cli_context.hpp"

namespace wavectl {

void register_isa_commands(CLI::App &app, CliContext &context);       // disasm, cfg, asm, codeobj
void register_trace_commands(CLI::App &app, CliContext &context);     // sqtt ..., pmc
void register_compiler_commands(CLI::App &app, CliContext &context);  // simplify, rewrite traces
void register_hw_commands(CLI::App &app, CliContext &context);        // devices, sim, flash, ...

}  // namespace wavectl
