#include "app/capture_document.hpp"

#include <QFileInfo>

#include <algorithm>

#include <fmt/format.h>

#include "app/code_object_document.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"
#include "wavescope/trace/timeline/pc_stats_analysis.hpp"

namespace wavescope::gui {

using namespace trace;
using namespace trace::timeline;

const WaveTrace *ShaderEngineTrace::mapped_trace(int wave) const {
  if (wave < 0 || static_cast<std::size_t>(wave) >= timeline.waves.size()) return nullptr;
  const auto it = mapped_by_start.find(timeline.waves[static_cast<std::size_t>(wave)].start_index);
  return it == mapped_by_start.end() ? nullptr : &mapped_waves[it->second];
}

int CaptureDispatch::default_engine() const {
  int best = 0;
  std::uint64_t best_mapped = 0, best_events = 0;
  for (std::size_t i = 0; i < engines.size(); ++i) {
    std::uint64_t events = 0;
    for (const auto &row : engines[i].timeline.rows) events += row.events.size();
    const auto mapped = engines[i].mapped_instructions;
    if (mapped > best_mapped || (mapped == best_mapped && events > best_events)) {
      best = static_cast<int>(i);
      best_mapped = mapped;
      best_events = events;
    }
  }
  return best;
}

const ShaderEngineTrace *CaptureDocument::engine(int kernel, int se) const {
  const CaptureDispatch *d = dispatch(kernel);
  if (!d || se < 0 || static_cast<std::size_t>(se) >= d->engines.size()) return nullptr;
  return &d->engines[static_cast<std::size_t>(se)];
}

namespace {

// The disassembled kernel of a capture program (tinygrad packer ELFs name neither target nor
// kernel; the device and meta.json do).
KernelCode program_code(const CaptureProgram &program, const std::string &processor) {
  compiler::isa::CodeObjectOptions options;
  if (!processor.empty()) options.target = processor;
  options.kernel_name = program.name;
  const auto code = compiler::isa::CodeObject::from_bytes(program.code.read_all(), options,
                                                          program.code.describe());
  auto kernels = kernel_code_of(code);
  const auto named = std::find_if(kernels.begin(), kernels.end(),
                                  [&](const KernelCode &k) { return k.name == program.name; });
  KernelCode chosen = std::move(named != kernels.end() ? *named : kernels.front());
  chosen.name = program.name;
  return chosen;
}

void note_blob_problems(const ShaderEngineTrace &se, std::vector<std::string> &notes) {
  const auto &name = se.blob->file_name;
  const auto &d = se.report.decode;
  if (d.notes.truncated_last_packet)
    notes.push_back(fmt::format("{}: the last packet runs past the end of the blob (truncated "
                                "capture?)",
                                name));
  if (d.notes.missing_layout_header)
    notes.push_back(
        fmt::format("{}: no layout header; decoded as {}", name, sqtt::to_string(d.family)));
  if (d.notes.unknown_ops)
    notes.push_back(
        fmt::format("{}: {} instruction packets with an unknown op", name, d.notes.unknown_ops));
  const auto &a = se.report.anomalies;
  if (a.total())
    notes.push_back(fmt::format("{}: {} anomalies tolerated (waves without end {}, exec without "
                                "dispatch {}, PC walk lost {})",
                                name, a.total(), a.waves_without_end, a.exec_without_dispatch,
                                a.branch_without_jump + a.pc_outside_text));
}

}  // namespace

std::shared_ptr<CaptureDocument> load_capture(const QString &path, const OpenOptions &options,
                                              const ProgressSink &progress) {
  auto doc = std::make_shared<CaptureDocument>();
  doc->path = path;
  doc->capture = Capture::open(path.toStdString());
  const Capture &capture = doc->capture;
  doc->analyzer = std::make_unique<CaptureAnalyzer>(capture);
  std::string processor = capture.device.processor;
  if (processor.empty()) processor = options.target.toStdString();
  doc->title =
      QStringLiteral("%1  (%2)")
          .arg(QString::fromStdString(capture.example.empty() ? capture.source.filename().string()
                                                              : capture.example),
               QString::fromStdString(processor.empty() ? capture.arch : processor));

  // Programs: disassembly for the views, the PC map for the trace.
  const auto report = [&](std::string_view stage, std::uint64_t done, std::uint64_t total,
                          std::string_view unit) {
    if (progress) progress({stage, done, total, unit});
  };
  for (std::size_t i = 0; i < capture.programs.size(); ++i) {
    report("programs", i, capture.programs.size(), "programs");
    const auto &program = capture.programs[i];
    CaptureDispatch dispatch;
    dispatch.program = &program;
    dispatch.code = program_code(program, processor);
    dispatch.stats = std::make_unique<PcStatsAccumulator>(doc->analyzer->program(program.tag));
    doc->dispatches.push_back(std::move(dispatch));
  }
  auto dispatch_of = [&](std::uint32_t tag) -> CaptureDispatch * {
    for (auto &d : doc->dispatches)
      if (d.program->tag == tag) return &d;
    return nullptr;
  };

  // SQTT: every blob decoded once, fanned out to the timeline, waves, statistics and clock.
  std::uint64_t total_bytes = 0, done_bytes = 0;
  for (const auto &blob : capture.blobs) total_bytes += blob.size;
  for (const auto &blob : capture.blobs) {
    CaptureDispatch *dispatch = dispatch_of(blob.kernel_tag);
    if (!dispatch) {
      doc->notes.push_back(fmt::format("{}: belongs to kernel tag {}, which meta.json does not "
                                       "list; skipped",
                                       blob.file_name, blob.kernel_tag));
      done_bytes += blob.size;
      continue;
    }
    ShaderEngineTrace se;
    se.blob = &blob;
    se.stats = std::make_unique<PcStatsAccumulator>(doc->analyzer->program(blob.kernel_tag));
    TimelineBuilder builder(blob.se, blob.file_name);
    WaveTraceCollector waves(true);
    WaveCounter counter;
    ClockSummary clock;
    ObserverFanout fanout({&builder, &waves, &counter, &clock});
    const ProgressSink blob_progress = [&](const ProgressUpdate &u) {
      report("analyze", done_bytes + u.done, total_bytes, "bytes");
    };
    // The per-PC statistics as `wavectl sqtt insts` computes them (CDNA included), in the same
    // decode pass as the timeline and the waves.
    auto analysis = analyze_pc_stats(*doc->analyzer, blob, *se.stats, &fanout,
                                     progress ? &blob_progress : nullptr);
    se.report = analysis.blob;
    se.cdna_mapping = std::move(analysis.cdna_mapping);
    done_bytes += blob.size;
    se.timeline = builder.finish();
    for (auto &trace : waves.take())
      if (trace.mapped) {
        se.mapped_by_start[trace.wave.start_index] = se.mapped_waves.size();
        se.mapped_waves.push_back(std::move(trace));
      }
    se.mapped_instructions = counter.mapped_instructions;
    se.clock_median_hz = static_cast<std::uint64_t>(std::max<std::int64_t>(0, clock.median_hz()));
    dispatch->waves += se.timeline.waves.size();
    dispatch->stats->merge(*se.stats);
    note_blob_problems(se, doc->notes);
    dispatch->engines.push_back(std::move(se));
  }
  report("analyze", total_bytes, total_bytes, "bytes");

  // Heat for the ISA and CFG views: each PC's share of the kernel's issue-gap cycles.
  for (auto &dispatch : doc->dispatches)
    for (const auto &row : dispatch.stats->rows())
      if (const double share = dispatch.stats->cost_percent(row) / 100.0; share > 0)
        dispatch.heat[row.pc] = share;

  // PMC: one table per dispatch.
  for (auto &counters : pmc::decode_capture(capture, progress)) {
    CaptureDispatch *dispatch = dispatch_of(counters.kernel_tag);
    if (dispatch) dispatch->counters.push_back(std::move(counters));
  }
  return doc;
}

}  // namespace wavescope::gui
