// wavectl's trace subcommands: SQTT (sqtt_commands.cpp), PMC counters (pmc_commands.cpp) and
// profiles (profile_commands.cpp).

#include "commands/trace/trace_commands.hpp"

namespace wavectl {

void register_trace_commands(CLI::App &app, CliContext &context) {
  register_sqtt_commands(app, context);
  register_pmc_commands(app, context);
  register_profile_commands(app, context);
  register_rgp_commands(app, context);
}

}  // namespace wavectl
