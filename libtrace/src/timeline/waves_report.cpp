#include "wavescope/trace/timeline/waves_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {
namespace {

using nlohmann::json;

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
  if (!t.states.empty()) {
    auto &states = o["states"] = json::array();
    for (const auto &st : t.states) states.push_back({to_string(st.state), st.duration});
  }
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
      if (i.stall >= 0) r["stall"] = i.stall;
      if (i.duration >= 0) r["duration"] = i.duration;
      if (i.inserted) r["inserted"] = true, r["pkt"] = nullptr;
      if (!i.exec.empty()) {
        auto &exec = r["exec"] = json::array();
        for (const auto &e : i.exec) exec.push_back({e.row, e.name, e.start, e.end});
      }
      insts.push_back(std::move(r));
    }
  }
  return o;
}

}  // namespace

CaptureWaves collect_waves(const Capture &capture, const std::string &kernel,
                           const ProgressSink &progress, const AnalysisOptions &options) {
  AnalysisRequest request;
  request.options = options;
  request.kernel = kernel;
  request.waves = true;
  auto analysis = analyze_capture(capture, request, progress);
  CaptureWaves result;
  result.cdna = analysis.cdna;
  result.kernel_found = analysis.selection_found(request);
  result.source = capture.source.string();
  result.arch = capture.arch;
  result.blobs = analysis.blobs.size();
  result.analyzer = analysis.analyzer;
  for (auto &b : analysis.blobs)
    for (auto &t : b.waves) result.waves.push_back({b.blob, std::move(t)});
  return result;
}

std::string to_json(const WavesReport &report) {
  std::string out;
  for (const auto &[blob, trace] : report.waves.waves) {
    if (!out.empty()) out += '\n';
    out += json_line(wave_json(*blob, trace, report.waves.cdna, report.instructions));
  }
  return out;
}

std::string to_text(const WavesReport &report) {
  const auto &r = report.waves;
  using Align = TextTable::Align;
  TextTable table({"blob", "se", r.cdna ? "sh" : "sa", "wgp", "cu", "simd", "slot", "start", "end",
                   "cycles", "mapped"},
                  {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right,
                   Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                   Align::Right});
  for (const auto &[blob, t] : r.waves) {
    const auto &w = t.wave;
    table.add_row({blob->file_name, std::to_string(w.se), std::to_string(r.cdna ? w.sh : w.sa),
                   r.cdna ? "-" : std::to_string(w.wgp), std::to_string(w.cu),
                   std::to_string(w.simd), std::to_string(w.slot), std::to_string(w.start),
                   std::to_string(w.end), std::to_string(w.end - w.start),
                   t.mapped ? fmt::format("{} insts", t.instructions.size()) : "-"});
  }
  std::string out = table.render();
  out +=
      fmt::format("\n{} waves in {} blobs of {} ({})\n", r.waves.size(), r.blobs, r.source, r.arch);
  if (report.instructions)
    out += "(the per-instruction stream is in the JSON form; per-PC statistics are a report of "
           "their own)\n";
  return out;
}

}  // namespace wavescope::trace::timeline
