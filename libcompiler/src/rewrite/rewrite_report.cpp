#include "wavescope/compiler/rewrite/rewrite_report.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"

namespace wavescope::compiler::rewrite {
namespace {

std::size_t step_count(const TraceGroupRecord &g) {
  std::size_t n = 0;
  for (const auto &r : g.rewrites) n += r.steps.size();
  return n;
}

std::string text(const UOp &u) { return symbolic::render_expression(u); }

}  // namespace

std::string to_json(const TraceSummaryReport &report) {
  std::string out;
  for (const auto &g : report.trace.groups()) {
    nlohmann::ordered_json j;
    j["name"] = g.name;
    j["keys"] = g.keys;
    nlohmann::json steps = nlohmann::json::array();
    std::map<std::string, std::size_t> rules;
    for (const auto &r : g.rewrites) {
      steps.push_back({{"name", r.name},
                       {"depth", r.depth},
                       {"match_count", r.steps.size()},
                       {"loc", r.loc},
                       {"mode", r.mode}});
      for (const auto &s : r.steps) ++rules[rule_title(s)];
    }
    j["steps"] = steps;
    j["rules"] = rules;
    if (!out.empty()) out += '\n';
    out += json_line(j);
  }
  return out;
}

std::string to_text(const TraceSummaryReport &report) {
  const auto &trace = report.trace;
  std::size_t rewrites = 0, steps = 0;
  std::map<std::string, std::pair<std::size_t, std::uint64_t>> rules;  // count, ns
  for (const auto &g : trace.groups()) {
    rewrites += g.rewrites.size();
    steps += step_count(g);
    for (const auto &r : g.rewrites)
      for (const auto &s : r.steps) {
        auto &entry = rules[rule_title(s)];
        ++entry.first;
        entry.second += s.ns;
      }
  }
  using Align = TextTable::Align;
  std::string out = fmt::format("{}: {} nodes, {} groups, {} rewrites, {} steps\n", report.file,
                                trace.nodes().size(), trace.groups().size(), rewrites, steps);
  TextTable groups({"#", "group", "rewrites", "steps"},
                   {Align::Right, Align::Left, Align::Right, Align::Right});
  for (std::size_t i = 0; i < trace.groups().size(); ++i) {
    const auto &g = trace.groups()[i];
    groups.add_row({std::to_string(i), strip_ansi(g.name), std::to_string(g.rewrites.size()),
                    std::to_string(step_count(g))});
  }
  out += groups.render();
  std::vector<std::pair<std::string, std::pair<std::size_t, std::uint64_t>>> by_count(rules.begin(),
                                                                                      rules.end());
  // Most applied first; ties by name (the map's order).
  std::sort(by_count.begin(), by_count.end(), [](const auto &a, const auto &b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first : a.first < b.first;
  });
  TextTable table({"rule", "applied", "us"}, {Align::Left, Align::Right, Align::Right});
  for (const auto &[name, stats] : by_count)
    table.add_row(
        {name, std::to_string(stats.first), fmt::format("{:.1f}", stats.second / 1000.0)});
  if (table.rows()) out += '\n' + table.render();
  return out;
}

RewriteReplay replay_rewrite(const RewriteTrace &trace, const TraceRewrite &rewrite) {
  RewriteReplay replay{trace, rewrite, trace.replay(rewrite), false};
  replay.reproduces_output =
      rewrite.output && replay.graphs.back() == trace.rebuild(*rewrite.output);
  return replay;
}

std::string to_json(const RewriteReplay &replay) {
  const auto &trace = replay.trace;
  const auto &rw = replay.rewrite;
  std::string out;
  for (std::size_t k = 0; k < rw.steps.size(); ++k) {
    const auto &s = rw.steps[k];
    nlohmann::ordered_json j;
    j["step"] = k + 1;
    j["rule"] = s.rule;
    j["rule_loc"] = s.rule_loc;
    j["ns"] = s.ns;
    j["before"] = text(trace.rebuild(s.before));
    j["after"] = text(trace.rebuild(s.after));
    j["graph"] = text(replay.graphs[k + 1]);
    if (!out.empty()) out += '\n';
    out += json_line(j);
  }
  return out;
}

std::string to_text(const RewriteReplay &replay) {
  const auto &trace = replay.trace;
  const auto &rw = replay.rewrite;
  std::string out = fmt::format("{} ({}, depth {}, {}): {} steps\n", rw.name, rw.loc, rw.depth,
                                rw.mode, rw.steps.size());
  out += fmt::format("  input   {}\n", text(replay.graphs.front()));
  for (std::size_t k = 0; k < rw.steps.size(); ++k) {
    const auto &s = rw.steps[k];
    out += fmt::format("  {:>3}  {}  [{}, {:.2f} us]\n       {}  =>  {}\n       = {}\n", k + 1,
                       s.rule, s.rule_loc, s.ns / 1000.0, text(trace.rebuild(s.before)),
                       text(trace.rebuild(s.after)), text(replay.graphs[k + 1]));
  }
  out += fmt::format("  output  {}\n", rw.output ? text(trace.rebuild(*rw.output)) : "(failed)");
  out += replay.reproduces_output ? "replay: the steps reproduce the recorded output\n"
                                  : "replay: the steps do NOT reproduce the recorded output\n";
  return out;
}

}  // namespace wavescope::compiler::rewrite
