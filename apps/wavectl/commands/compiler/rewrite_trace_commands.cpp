// wavectl rewrite-trace contexts|info|show: the contexts and steps, summaries and step-by-step
// replays of rewrite traces (docs/rewrite-trace.md): ours (`wavectl simplify --trace`) or
// tinygrad's rewrites.pkl, told by content.

#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/compiler/compiler_commands.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;
using wavescope::Error;
using wavescope::ErrorKind;

std::size_t step_count(const TraceGroupRecord &g) {
  std::size_t n = 0;
  for (const auto &r : g.rewrites) n += r.steps.size();
  return n;
}

void run_contexts(const std::string &file, const CliContext &context) {
  const RewriteTrace trace = RewriteTrace::open(file);
  if (context.json)
    print_contexts_json(std::cout, trace);
  else
    print_contexts_text(std::cout, trace);
}

void run_info(const std::string &file, const CliContext &context) {
  const RewriteTrace trace = RewriteTrace::open(file);
  if (context.json) {
    for (const auto &g : trace.groups()) {
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
      std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
    return;
  }
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
  std::cout << fmt::format("{}: {} nodes, {} groups, {} rewrites, {} steps\n", file,
                           trace.nodes().size(), trace.groups().size(), rewrites, steps);
  Table groups({"#", "group", "rewrites", "steps"},
               {Table::Align::Right, Table::Align::Left, Table::Align::Right, Table::Align::Right});
  for (std::size_t i = 0; i < trace.groups().size(); ++i) {
    const auto &g = trace.groups()[i];
    groups.add_row({std::to_string(i), strip_ansi(g.name), std::to_string(g.rewrites.size()),
                    std::to_string(step_count(g))});
  }
  std::cout << groups.render();
  std::vector<std::pair<std::string, std::pair<std::size_t, std::uint64_t>>> by_count(rules.begin(),
                                                                                      rules.end());
  // Most applied first; ties by name (the map's order).
  std::sort(by_count.begin(), by_count.end(), [](const auto &a, const auto &b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first : a.first < b.first;
  });
  Table table({"rule", "applied", "us"},
              {Table::Align::Left, Table::Align::Right, Table::Align::Right});
  for (const auto &[name, stats] : by_count)
    table.add_row(
        {name, std::to_string(stats.first), fmt::format("{:.1f}", stats.second / 1000.0)});
  if (table.rows()) std::cout << '\n' << table.render();
}

void run_show(const std::string &file, std::size_t group_index, std::size_t rewrite_index,
              const CliContext &context) {
  const RewriteTrace trace = RewriteTrace::open(file);
  if (group_index >= trace.groups().size())
    throw Error(ErrorKind::Usage, fmt::format("{} has {} groups; --group {} does not exist", file,
                                              trace.groups().size(), group_index));
  const auto &group = trace.groups()[group_index];
  if (rewrite_index >= group.rewrites.size())
    throw Error(ErrorKind::Usage,
                fmt::format("group {} has {} rewrites; --rewrite {} does not exist", group_index,
                            group.rewrites.size(), rewrite_index));
  const TraceRewrite &rw = group.rewrites[rewrite_index];
  const auto graphs = trace.replay(rw);
  const bool matches = rw.output && graphs.back() == trace.rebuild(*rw.output);
  auto text = [](const UOp &u) { return symbolic::render_expression(u); };
  if (context.json) {
    for (std::size_t k = 0; k < rw.steps.size(); ++k) {
      const auto &s = rw.steps[k];
      nlohmann::ordered_json j;
      j["step"] = k + 1;
      j["rule"] = s.rule;
      j["rule_loc"] = s.rule_loc;
      j["ns"] = s.ns;
      j["before"] = text(trace.rebuild(s.before));
      j["after"] = text(trace.rebuild(s.after));
      j["graph"] = text(graphs[k + 1]);
      std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    }
  } else {
    std::cout << fmt::format("{} ({}, depth {}, {}): {} steps\n", rw.name, rw.loc, rw.depth,
                             rw.mode, rw.steps.size());
    std::cout << fmt::format("  input   {}\n", text(graphs.front()));
    for (std::size_t k = 0; k < rw.steps.size(); ++k) {
      const auto &s = rw.steps[k];
      std::cout << fmt::format("  {:>3}  {}  [{}, {:.2f} us]\n       {}  =>  {}\n       = {}\n",
                               k + 1, s.rule, s.rule_loc, s.ns / 1000.0,
                               text(trace.rebuild(s.before)), text(trace.rebuild(s.after)),
                               text(graphs[k + 1]));
    }
    std::cout << fmt::format("  output  {}\n",
                             rw.output ? text(trace.rebuild(*rw.output)) : "(failed)");
    std::cout << (matches ? "replay: the steps reproduce the recorded output\n"
                          : "replay: the steps do NOT reproduce the recorded output\n");
  }
  if (rw.output && !matches)
    throw Error(ErrorKind::Mismatch, "replaying the steps does not reproduce the recorded output");
}

}  // namespace

void register_rewrite_trace_command(CLI::App &app, CliContext &context) {
  auto *cmd = app.add_subcommand(
      "rewrite-trace",
      "Inspect rewrite traces (wavectl simplify --trace, tinygrad's rewrites.pkl)");
  cmd->require_subcommand(1);

  auto contexts_file = std::make_shared<std::string>();
  auto *contexts = cmd->add_subcommand(
      "contexts", "List the contexts and their steps as tinygrad VIZ does (name, depth, matches, "
                  "call site)");
  contexts->add_option("FILE", *contexts_file, "Rewrite trace (.json) or tinygrad rewrites.pkl")
      ->required()
      ->check(CLI::ExistingFile);
  add_json_flag(*contexts, context);
  contexts->callback([contexts_file, &context] { run_contexts(*contexts_file, context); });

  auto file = std::make_shared<std::string>();
  auto *info = cmd->add_subcommand("info", "Summarize a trace: groups, rewrites, rules applied");
  info->add_option("FILE", *file, "Rewrite trace (.json) or tinygrad rewrites.pkl")
      ->required()
      ->check(CLI::ExistingFile);
  add_json_flag(*info, context);
  info->callback([file, &context] { run_info(*file, context); });

  auto show_file = std::make_shared<std::string>();
  auto group = std::make_shared<std::size_t>(0);
  auto rewrite = std::make_shared<std::size_t>(0);
  auto *show =
      cmd->add_subcommand("show", "Replay one rewrite step by step: rule, before, after, graph");
  show->add_option("FILE", *show_file, "Rewrite trace (.json) or tinygrad rewrites.pkl")
      ->required()
      ->check(CLI::ExistingFile);
  show->add_option("--group", *group, "Group index (see info; default 0)");
  show->add_option("--rewrite", *rewrite, "Rewrite index within the group (default 0)");
  add_json_flag(*show, context);
  show->callback(
      [show_file, group, rewrite, &context] { run_show(*show_file, *group, *rewrite, context); });
}

}  // namespace wavectl
