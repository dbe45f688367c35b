#pragma once
// The trace area's two subcommand families.

#include "commands/registry.hpp"
#include "wavescope/trace/timeline/cdna_clock.hpp"

namespace wavectl {
void register_sqtt_commands(CLI::App &app, CliContext &context);  // sqtt decode|waves|insts|stats
void register_pmc_commands(CLI::App &app, CliContext &context);   // pmc
void register_profile_commands(CLI::App &app, CliContext &context);  // profile events|info|export
void register_rgp_commands(CLI::App &app, CliContext &context);      // rgp info|export

// Usage error when `found` is false: no blob of the capture is of kernel `kernel` (when named)
// and named `blob` (when named).
void require_selection(bool found, const std::string &capture, const std::string &kernel,
                       const std::string &blob = {});

// --cdna-clock ticked|reset-windows|tinygrad: the clock CDNA waves and instructions are timed on.
void add_cdna_clock_option(CLI::App &command, wavescope::trace::timeline::CdnaClock &clock);
}  // namespace wavectl
