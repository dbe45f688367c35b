// wavectl sqtt waves CAPTURE_DIR: every wave of a capture (location, start, end), optionally
// with the mapped instruction stream of the traced waves and its timing.

#include <iostream>

#include <unistd.h>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/waves_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

struct WavesArgs {
  std::string capture;
  std::string kernel;
  bool instructions = false;
  CdnaClock cdna_clock = CdnaClock::Ticked;
};

void run_waves(const WavesArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  const bool big = capture_bytes > (std::uint64_t{64} << 20);
  if (context.json) {
    // Streamed: each blob's lines are printed as it is analysed (no progress line between them
    // on a terminal).
    ProgressPrinter progress(!context.quiet && big && ::isatty(1) == 0);
    const auto summary = stream_waves_json(
        capture, args.kernel, args.instructions,
        [](std::string_view text) { std::cout.write(text.data(), std::ssize(text)); },
        progress.sink(), {args.cdna_clock});
    progress.finish();
    require_selection(summary.kernel_found, args.capture, args.kernel);
    return;
  }
  ProgressPrinter progress(!context.quiet && big);
  const auto waves =
      collect_waves(capture, args.kernel, progress.sink(), {args.cdna_clock}, args.instructions);
  progress.finish();
  require_selection(waves.kernel_found, args.capture, args.kernel);
  print_report(WavesReport{waves, args.instructions}, context);
}

}  // namespace

void register_sqtt_waves(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<WavesArgs>();
  auto *cmd = sqtt.add_subcommand("waves", "List every wave of a capture: location, start, end");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--kernel", args->kernel, "Only the blobs of this kernel");
  cmd->add_flag("--instructions", args->instructions,
                "With --json: add each traced wave's mapped instructions (\"insts\")");
  add_cdna_clock_option(*cmd, args->cdna_clock);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_waves(*args, context); });
}

}  // namespace wavectl
