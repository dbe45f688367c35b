// wavectl's sqtt subcommands: decode (packets), waves (wave lifetimes), insts (per-PC timing),
// stats (per-blob summary), timeline (the VIZ-style timeline model), clock (realtime pairs).
// Each lives in its own sqtt_<name>.cpp.

#include "commands/trace/trace_commands.hpp"

namespace wavectl {

void register_sqtt_decode(CLI::App &sqtt, CliContext &context);    // sqtt_decode.cpp
void register_sqtt_waves(CLI::App &sqtt, CliContext &context);     // sqtt_waves.cpp
void register_sqtt_insts(CLI::App &sqtt, CliContext &context);     // sqtt_insts.cpp
void register_sqtt_stats(CLI::App &sqtt, CliContext &context);     // sqtt_stats.cpp
void register_sqtt_timeline(CLI::App &sqtt, CliContext &context);  // sqtt_timeline.cpp
void register_sqtt_clock(CLI::App &sqtt, CliContext &context);     // sqtt_clock.cpp

void register_sqtt_commands(CLI::App &app, CliContext &context) {
  auto *sqtt = app.add_subcommand("sqtt", "Decode AMD SQ thread traces (SQTT) and time waves");
  sqtt->require_subcommand(1);
  register_sqtt_decode(*sqtt, context);
  register_sqtt_waves(*sqtt, context);
  register_sqtt_insts(*sqtt, context);
  register_sqtt_stats(*sqtt, context);
  register_sqtt_timeline(*sqtt, context);
  register_sqtt_clock(*sqtt, context);
}

}  // namespace wavectl
