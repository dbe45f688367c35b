#include "app/capture_document.hpp"

#include <QFileInfo>

#include <algorithm>

#include <fmt/format.h>

#include "app/code_object_document.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

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
    const auto mapped = engines[i].instructions_mapped();
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

}  // namespace

std::shared_ptr<CaptureDocument> load_capture(const QString &path, const OpenOptions &options,
                                              const ProgressSink &progress) {
  auto doc = std::make_shared<CaptureDocument>();
  doc->path = path;
  doc->capture = Capture::open(path.toStdString());
  const Capture &capture = doc->capture;
  std::string processor = capture.device.processor;
  if (processor.empty()) processor = options.target.toStdString();
  doc->title =
      QStringLiteral("%1  (%2)")
          .arg(QString::fromStdString(capture.example.empty() ? capture.source.filename().string()
                                                              : capture.example),
               QString::fromStdString(processor.empty() ? capture.arch : processor));

  // Programs: disassembly for the views.
  std::vector<KernelCode> codes;
  for (std::size_t i = 0; i < capture.programs.size(); ++i) {
    if (progress) progress({"programs", i, capture.programs.size(), "programs"});
    codes.push_back(program_code(capture.programs[i], processor));
  }

  // Everything else is libtrace's one analysis, as wavectl sqtt computes it.
  AnalysisRequest request;
  request.waves = request.pc_stats = request.blob_pc_stats = request.timeline = request.pmc = true;
  auto analysis = analyze_capture(capture, request, progress);
  doc->analyzer = analysis.analyzer;
  doc->notes = std::move(analysis.notes);
  for (auto &kernel : analysis.kernels) {
    if (!kernel.program) continue;  // blobs of a tag meta.json does not list (noted)
    CaptureDispatch dispatch;
    dispatch.program = kernel.program;
    dispatch.code =
        std::move(codes[static_cast<std::size_t>(kernel.program - capture.programs.data())]);
    dispatch.stats = std::move(kernel.pc_stats);
    dispatch.counters = std::move(kernel.counters);
    for (const auto index : kernel.blobs) {
      auto &b = analysis.blobs[index];
      ShaderEngineTrace se;
      se.blob = b.blob;
      se.timeline = std::move(b.timeline);
      se.report = b.report;
      se.stats = std::move(b.pc_stats);
      se.cdna_mapping = std::move(b.cdna_mapping);
      se.mapped_instructions = b.mapped_instructions;
      se.clock_median_hz = static_cast<std::uint64_t>(std::max<std::int64_t>(0, b.clock_median_hz));
      for (auto &trace : b.waves)
        if (trace.mapped) {
          se.mapped_by_start[trace.wave.start_index] = se.mapped_waves.size();
          se.mapped_waves.push_back(std::move(trace));
        }
      dispatch.waves += se.timeline.waves.size();
      dispatch.engines.push_back(std::move(se));
    }
    // Heat for the ISA and CFG views: each PC's share of the kernel's issue-gap cycles.
    for (const auto &row : dispatch.stats->rows())
      if (const double share = dispatch.stats->cost_percent(row) / 100.0; share > 0)
        dispatch.heat[row.pc] = share;
    doc->dispatches.push_back(std::move(dispatch));
  }
  return doc;
}

}  // namespace wavescope::gui
