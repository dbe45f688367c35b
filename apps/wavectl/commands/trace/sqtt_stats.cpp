// wavectl sqtt stats CAPTURE_DIR: one line per blob (packets, waves, mapped instructions, clock,
// anomalies) and the capture's totals, streamed in bounded memory.

#include <iostream>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/trace/timeline/capture_stats.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

void run_stats(const std::string &dir, const CliContext &context) {
  const auto capture = Capture::open(dir);
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  ProgressPrinter progress(!context.quiet && capture_bytes > (std::uint64_t{64} << 20));
  const auto stats = collect_capture_stats(capture, progress.sink());
  progress.finish();
  print_report(stats, context);
}

}  // namespace

void register_sqtt_stats(CLI::App &sqtt, CliContext &context) {
  auto dir = std::make_shared<std::string>();
  auto *cmd = sqtt.add_subcommand("stats", "Per-blob summary of a capture: packets, waves, clock");
  cmd->add_option("CAPTURE_DIR", *dir, "Capture folder (with meta.json)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([dir, &context] { run_stats(*dir, context); });
}

}  // namespace wavectl
