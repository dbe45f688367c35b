// wavectl sqtt waves CAPTURE_DIR: every wave of a capture (location, start, end), optionally
// with the mapped instruction stream of the traced waves and its timing.

#include <iostream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;
using nlohmann::json;

struct WavesArgs {
  std::string capture;
  std::string kernel;
  bool instructions = false;
};

json wave_json(const CaptureBlob &blob, const WaveTrace &t, bool cdna, bool instructions) {
  const auto &w = t.wave;
  json o;
  o["blob"] = blob.file_name;
  o["kernel"] = blob.program;
  o["se"] = w.se;
  if (cdna) {
    o["sh"] = w.sh;
  } else {
    o["sa"] = w.sa;
    o["wgp"] = w.wgp;
  }
  o["cu"] = w.cu;
  o["simd"] = w.simd;
  o["wave"] = w.slot;
  o["start"] = w.start;
  o["end"] = w.end;
  o["start_i"] = w.start_index;
  o["end_i"] = w.end_index;
  if (!cdna) o["id7"] = w.id7;
  o["mapped"] = t.mapped;
  if (t.mapped) o["instructions"] = t.instructions.size();
  if (instructions && t.mapped) {
    auto &insts = o["insts"] = json::array();
    for (const auto &i : t.instructions) {
      json r;
      r["pc"] = i.pc;
      r["asm"] = i.instruction ? i.instruction->text : std::string("s_endpgm");
      r["time"] = i.time;
      r["gap"] = i.issue_gap;
      r["pkt"] = sqtt::to_string(i.packet);
      r["name"] = i.name;
      r["viz"] = {i.bar_start, i.bar_end};
      if (i.barrier_wait) r["barrier_wait"] = i.barrier_wait;
      if (!i.exec.empty()) {
        auto &exec = r["exec"] = json::array();
        for (const auto &e : i.exec) exec.push_back({e.row, e.name, e.start, e.end});
      }
      insts.push_back(std::move(r));
    }
  }
  return o;
}

void run_waves(const WavesArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  const bool cdna = family_of_device(capture.device) == sqtt::Family::Cdna;
  CaptureAnalyzer analyzer(capture);
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  ProgressPrinter progress(!context.quiet && capture_bytes > (std::uint64_t{64} << 20));
  Table table({"blob", "se", cdna ? "sh" : "sa", "wgp", "cu", "simd", "slot", "start", "end",
               "cycles", "mapped"},
              {Table::Align::Left, Table::Align::Right, Table::Align::Right, Table::Align::Right,
               Table::Align::Right, Table::Align::Right, Table::Align::Right, Table::Align::Right,
               Table::Align::Right, Table::Align::Right, Table::Align::Right});
  std::size_t blobs = 0, waves = 0;
  bool kernel_found = args.kernel.empty();
  for (const auto &blob : capture.blobs) {
    if (!args.kernel.empty() && blob.program != args.kernel) continue;
    kernel_found = true;
    progress.sink()({"analyze", blobs++, capture.blobs.size(), "blobs"});
    WaveTraceCollector collector(true);
    analyzer.analyze(blob, collector);
    for (const auto &t : collector.take()) {
      ++waves;
      if (context.json) {
        print_json_line(wave_json(blob, t, cdna, args.instructions));
        continue;
      }
      const auto &w = t.wave;
      table.add_row({blob.file_name, std::to_string(w.se),
                     std::to_string(cdna ? w.sh : w.sa), cdna ? "-" : std::to_string(w.wgp),
                     std::to_string(w.cu), std::to_string(w.simd), std::to_string(w.slot),
                     std::to_string(w.start), std::to_string(w.end),
                     std::to_string(w.end - w.start),
                     t.mapped ? fmt::format("{} insts", t.instructions.size()) : "-"});
    }
  }
  progress.finish();
  if (!kernel_found)
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           fmt::format("{}: no kernel named '{}'", args.capture, args.kernel));
  if (!context.json) {
    std::cout << table.render();
    std::cout << fmt::format("\n{} waves in {} blobs of {} ({})\n", waves, blobs,
                             capture.source.string(), capture.arch);
    if (args.instructions)
      std::cout << "(the per-instruction stream is printed with --json; see also `sqtt insts`)\n";
  }
}

}  // namespace

void register_sqtt_waves(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<WavesArgs>();
  auto *cmd = sqtt.add_subcommand("waves", "List every wave of a capture: location, start, end");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--kernel", args->kernel, "Only the blobs of this kernel");
  cmd->add_flag("--instructions", args->instructions,
                "With --json: add each traced wave's mapped instructions (\"insts\")");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_waves(*args, context); });
}

}  // namespace wavectl
