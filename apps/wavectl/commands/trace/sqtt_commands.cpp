// wavectl's sqtt subcommands: decode (packets), waves (wave lifetimes), insts (per-PC timing),
// stats (per-blob summary), timeline (the VIZ-style timeline model), clock (realtime pairs).
// Each lives in its own sqtt_<name>.cpp.

#include "commands/trace/trace_commands.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

#include <map>
#include <string>
#include <vector>

namespace wavectl {

void register_sqtt_decode(CLI::App &sqtt, CliContext &context);    // sqtt_decode.cpp
void register_sqtt_waves(CLI::App &sqtt, CliContext &context);     // sqtt_waves.cpp
void register_sqtt_insts(CLI::App &sqtt, CliContext &context);     // sqtt_insts.cpp
void register_sqtt_stats(CLI::App &sqtt, CliContext &context);     // sqtt_stats.cpp
void register_sqtt_timeline(CLI::App &sqtt, CliContext &context);  // sqtt_timeline.cpp
void register_sqtt_clock(CLI::App &sqtt, CliContext &context);     // sqtt_clock.cpp

void require_selection(bool found, const std::string &capture, const std::string &kernel,
                       const std::string &blob) {
  if (found) return;
  throw wavescope::Error(wavescope::ErrorKind::Usage,
                         blob.empty()
                             ? fmt::format("{}: no kernel named '{}'", capture, kernel)
                             : fmt::format("{}: no blob named '{}' in meta.json", capture, blob));
}

void add_cdna_clock_option(CLI::App &command, wavescope::trace::timeline::CdnaClock &clock) {
  using wavescope::trace::timeline::CdnaClock;
  std::map<std::string, CdnaClock> names;
  for (const auto c : {CdnaClock::Ticked, CdnaClock::ResetWindows, CdnaClock::Tinygrad})
    names.emplace(std::string(to_string(c)), c);
  std::vector<std::string> keys;
  for (const auto &[name, c] : names) keys.push_back(name);
  command
      .add_option_function<std::string>(
          "--cdna-clock", [&clock, names](const std::string &name) { clock = names.at(name); },
          "CDNA: the clock waves and instructions are timed on: ticked (rocprof's, the default), "
          "reset-windows, or tinygrad (its waves.jsonl/timeline.jsonl)")
      ->check(CLI::IsMember(keys));
}

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
