#pragma once
// The trace area's two subcommand families.

#include "commands/registry.hpp"

namespace wavectl {
void register_sqtt_commands(CLI::App &app, CliContext &context);  // sqtt decode|waves|insts|stats
void register_pmc_commands(CLI::App &app, CliContext &context);   // pmc
void register_profile_commands(CLI::App &app, CliContext &context);  // profile events|info|export
void register_rgp_commands(CLI::App &app, CliContext &context);      // rgp info|export
}  // namespace wavectl
