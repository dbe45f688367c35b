// wavectl sqtt insts CAPTURE_DIR: per-PC instruction timing over every mapped wave of each kernel
// (hits, issue-gap statistics, execution cycles, cost %), streamed in bounded memory.

#include <iostream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

struct InstsArgs {
  std::string capture;
  std::string kernel;
  CdnaClock cdna_clock = CdnaClock::Ticked;
};

void run_insts(const InstsArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  ProgressPrinter progress(!context.quiet && capture_bytes > (std::uint64_t{64} << 20));
  const auto stats =
      collect_instruction_stats(capture, args.kernel, progress.sink(), {args.cdna_clock});
  progress.finish();
  require_selection(stats.kernel_found, args.capture, args.kernel);
  print_report(stats, context);
}

}  // namespace

void register_sqtt_insts(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<InstsArgs>();
  auto *cmd = sqtt.add_subcommand(
      "insts", "Per-PC instruction timing: hits, issue gaps, exec cycles, cost %");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--kernel", args->kernel, "Only this kernel");
  add_cdna_clock_option(*cmd, args->cdna_clock);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_insts(*args, context); });
}

}  // namespace wavectl
