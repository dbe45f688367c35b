// wavectl sqtt timeline CAPTURE_DIR: the VIZ-style timeline model of each blob (wave-slot rows,
// execution-unit rows with links, barrier bars, shader-clock points). --json prints the events
// in the corpus' timeline.jsonl form; the table summarises the rows.

#include <iostream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"
#include "wavescope/trace/timeline/timeline_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

struct TimelineArgs {
  std::string capture;
  std::string blob;
  CdnaClock cdna_clock = CdnaClock::Ticked;
};

void run_timeline(const TimelineArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  AnalysisRequest request;
  request.blob = args.blob;
  request.timeline = true;
  request.options.cdna_clock = args.cdna_clock;
  const auto analysis = analyze_capture(capture, request);
  require_selection(analysis.selection_found(request), args.capture, {}, args.blob);
  for (const auto &b : analysis.blobs) print_report(SeTimelineReport{*b.blob, b.timeline}, context);
}

}  // namespace

void register_sqtt_timeline(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<TimelineArgs>();
  auto *cmd = sqtt.add_subcommand(
      "timeline", "The wave timeline model per blob: wave-slot and exec-unit rows, clock line");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--blob", args->blob, "Only this blob (file name, e.g. se1.bin)");
  add_cdna_clock_option(*cmd, args->cdna_clock);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_timeline(*args, context); });
}

}  // namespace wavectl
