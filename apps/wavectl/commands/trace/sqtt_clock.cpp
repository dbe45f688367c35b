// wavectl sqtt clock CAPTURE_DIR: per blob the realtime markers pairing the shader clock with the
// 100 MHz realtime counter, and the shader-clock frequency each pair gives.

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/clock_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

struct ClockArgs {
  std::string capture;
  std::string blob;
};

void run_clock(const ClockArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  AnalysisRequest request;
  request.blob = args.blob;
  request.realtime = true;
  const auto analysis = analyze_capture(capture, request);
  require_selection(analysis.selection_found(request), args.capture, {}, args.blob);
  print_report(ClockReport{analysis}, context);
}

}  // namespace

void register_sqtt_clock(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<ClockArgs>();
  auto *cmd = sqtt.add_subcommand(
      "clock", "Shader clock <-> realtime pairs per blob (realtime markers) and the frequencies");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--blob", args->blob, "Only this blob (file name, e.g. se1.bin)");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_clock(*args, context); });
}

}  // namespace wavectl
