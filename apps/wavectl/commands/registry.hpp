#pragma once
// Each library area registers its own family of wavectl subcommands.

#include <string>

#include <CLI/CLI.hpp>

#include "cli_context.hpp"
#include "wavescope/base/error.hpp"

namespace wavectl {

void register_isa_commands(CLI::App &app, CliContext &context);       // disasm, cfg, asm, codeobj
void register_trace_commands(CLI::App &app, CliContext &context);     // sqtt ..., pmc
void register_compiler_commands(CLI::App &app, CliContext &context);  // simplify, rewrite traces
void register_hw_commands(CLI::App &app, CliContext &context);        // devices, sim, flash, ...

// What wavectl prints for a library error: its message, or for an error whose remedy is one of
// wavectl's options, the error worded with those options (error_wording.cpp; libhw's refusals
// in commands/hw/refusal_wording.hpp).
std::string error_message(const wavescope::Error &error);

}  // namespace wavectl
