// wavectl rewrite-trace contexts|info|show: the contexts and steps, summaries and step-by-step
// replays of rewrite traces (docs/rewrite-trace.md): ours (`wavectl simplify --trace`) or
// tinygrad's rewrites.pkl, told by content.

#include <iostream>

#include <fmt/format.h>

#include "commands/compiler/compiler_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_report.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;
using wavescope::Error;
using wavescope::ErrorKind;

void run_contexts(const std::string &file, const CliContext &context) {
  const RewriteTrace trace = RewriteTrace::open(file);
  if (context.json)
    print_contexts_json(std::cout, trace);
  else
    print_contexts_text(std::cout, trace);
}

void run_info(const std::string &file, const CliContext &context) {
  const RewriteTrace trace = RewriteTrace::open(file);
  print_report(TraceSummaryReport{trace, file}, context);
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
  const auto replay = replay_rewrite(trace, rw);
  print_report(replay, context);
  if (rw.output && !replay.reproduces_output)
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
