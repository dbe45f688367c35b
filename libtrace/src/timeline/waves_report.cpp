#include "wavescope/trace/timeline/waves_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "json_writer.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {
namespace {

// One wave as a JSON line, keys in byte order (as nlohmann's object printed them before).
void write_wave(std::string &out, const CaptureBlob &blob, const WaveTrace &t, bool cdna,
                bool instructions) {
  const auto &w = t.wave;
  JsonWriter j(out);
  j.begin_object();
  j.field("blob", blob.file_name);
  j.field("cu", w.cu);
  j.field("end", w.end);
  j.field("end_i", w.end_index);
  if (!cdna) j.field("id7", w.id7);
  if (t.mapped) j.field("instructions", t.instruction_count);
  if (instructions && t.mapped) {
    j.key("insts").begin_array();
    for (const auto &i : t.instructions) {
      j.begin_object();
      j.field("asm", i.instruction ? std::string_view(i.instruction->text) : "s_endpgm");
      if (i.barrier_wait) j.field("barrier_wait", i.barrier_wait);
      if (i.duration >= 0) j.field("duration", i.duration);
      if (!i.exec.empty()) {
        j.key("exec").begin_array();
        for (const auto &e : i.exec) {
          j.begin_array();
          j.value(e.row);
          j.value(e.name);
          j.value(e.start);
          j.value(e.end);
          j.end_array();
        }
        j.end_array();
      }
      j.field("gap", i.issue_gap);
      if (i.inserted) j.field("inserted", true);
      j.field("name", i.name);
      j.field("pc", i.pc);
      if (i.inserted)
        j.field("pkt", nullptr);
      else
        j.field("pkt", sqtt::to_string(i.packet));
      if (i.stall >= 0) j.field("stall", i.stall);
      j.field("time", i.time);
      j.key("viz").begin_array();
      j.value(i.bar_start);
      j.value(i.bar_end);
      j.end_array();
      j.end_object();
    }
    j.end_array();
  }
  j.field("kernel", blob.program);
  j.field("mapped", t.mapped);
  if (!cdna) j.field("sa", w.sa);
  j.field("se", w.se);
  if (cdna) j.field("sh", w.sh);
  j.field("simd", w.simd);
  j.field("start", w.start);
  j.field("start_i", w.start_index);
  if (!t.states.empty()) {
    j.key("states").begin_array();
    for (const auto &st : t.states) {
      j.begin_array();
      j.value(to_string(st.state));
      j.value(st.duration);
      j.end_array();
    }
    j.end_array();
  }
  j.field("wave", w.slot);
  if (!cdna) j.field("wgp", w.wgp);
  j.end_object();
}

}  // namespace

CaptureWaves collect_waves(const Capture &capture, const std::string &kernel,
                           const ProgressSink &progress, const AnalysisOptions &options,
                           bool instructions) {
  AnalysisRequest request;
  request.instruction_records = instructions;
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
  // Room for the lines up front (about 200 bytes per wave, 250 per instruction record): the
  // output of a large capture is tens of MB, and growing it by doubling copies it over again.
  std::size_t records = 0;
  if (report.instructions)
    for (const auto &entry : report.waves.waves) records += entry.trace.instruction_count;
  std::string out;
  out.reserve(report.waves.waves.size() * 200 + records * 250);
  for (const auto &[blob, trace] : report.waves.waves) {
    if (!out.empty()) out += '\n';
    write_wave(out, *blob, trace, report.waves.cdna, report.instructions);
  }
  return out;
}

WavesStreamSummary stream_waves_json(const Capture &capture, const std::string &kernel,
                                     bool instructions,
                                     const std::function<void(std::string_view)> &write,
                                     const ProgressSink &progress, const AnalysisOptions &options,
                                     std::size_t piece_bytes) {
  AnalysisRequest request;
  request.instruction_records = instructions;
  request.options = options;
  request.kernel = kernel;
  request.waves = true;
  WavesStreamSummary summary;
  const bool cdna = family_of_device(capture.device) == sqtt::Family::Cdna;  // as the pipeline's
  std::string out;
  out.reserve(std::min(piece_bytes, std::size_t{1} << 24) + (std::size_t{64} << 10));
  request.on_blob = [&](BlobAnalysis &&b) {
    ++summary.blobs;
    for (const auto &t : b.waves) {
      write_wave(out, *b.blob, t, cdna, instructions);
      out += '\n';
      ++summary.waves;
      if (out.size() >= piece_bytes) {
        write(out);
        out.clear();
      }
    }
  };
  const auto analysis = analyze_capture(capture, request, progress);
  if (!out.empty()) write(out);
  summary.kernel_found = analysis.selection_found(request);
  return summary;
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
                   t.mapped ? fmt::format("{} insts", t.instruction_count) : "-"});
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
