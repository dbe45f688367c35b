#include "wavescope/trace/timeline/capture_pipeline.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

namespace wavescope::trace::timeline {
namespace {

void add_to(CdnaMappingReport &total, const CdnaMappingReport &blob) {
  total.inst_packets += blob.inst_packets;
  total.mapped += blob.mapped;
  total.lost += blob.lost;
  total.without_wave += blob.without_wave;
  total.without_issue += blob.without_issue;
  total.immediates += blob.immediates;
  total.unplaced_immediates += blob.unplaced_immediates;
  total.stalls += blob.stalls;
  total.waves += blob.waves;
  total.waves_complete += blob.waves_complete;
  total.waves_mapped += blob.waves_mapped;
  if (total.first_mismatch.empty()) total.first_mismatch = blob.first_mismatch;
}

// CDNA: CdnaMapper's walk gives the waves on the traced unit (CU 0 of SH 0) their timed
// streams and state timelines, matched to the wave by SIMD, slot and lifetime.
void attach_cdna_streams(const std::vector<CdnaMappedInstruction> &mapped,
                         const std::vector<CdnaMappedWave> &waves, bool keep_records,
                         std::vector<WaveTrace> &traces) {
  if (mapped.empty()) return;
  for (auto &t : traces) {
    const auto &w = t.wave;
    if (w.cu != 0 || w.sh != 0) continue;
    for (const auto &m : mapped) {
      if (m.simd != w.simd || m.slot != w.slot || m.time < w.start || m.time > w.end) continue;
      InstructionTiming i;
      i.pc = m.pc;
      i.instruction = m.instruction;
      i.time = m.time;
      i.issue_gap = m.issue_gap;
      i.packet = m.op == "IMMED" ? sqtt::PacketType::CdnaIssue : sqtt::PacketType::CdnaInst;
      i.name = m.op;
      i.bar_start = m.time;
      i.bar_end = m.time + 1;
      i.stall = m.stall;
      i.duration = m.duration;
      t.instructions.push_back(std::move(i));
    }
    t.instruction_count = t.instructions.size();
    t.mapped = t.instruction_count > 0;
    if (!keep_records) t.instructions = {};
    for (const auto &cw : waves)
      if (t.mapped && cw.simd == w.simd && cw.slot == w.slot && cw.start == w.start)
        t.states = cw.states;
  }
}

// What a blob's decode and analysis tolerated, in words.
void note_blob_problems(const BlobAnalysis &b, std::vector<std::string> &notes) {
  const auto &name = b.blob->file_name;
  const auto &d = b.report.decode;
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
  const auto &a = b.report.anomalies;
  if (a.total())
    notes.push_back(fmt::format("{}: {} anomalies tolerated (waves without end {}, exec without "
                                "dispatch {}, PC walk lost {})",
                                name, a.total(), a.waves_without_end, a.exec_without_dispatch,
                                a.branch_without_jump + a.pc_outside_text));
}

class RealtimeCollector final : public AnalysisObserver {
public:
  explicit RealtimeCollector(BlobAnalysis &out) : out_(out) {}
  void on_realtime(const RealtimePair &pair) override { out_.realtime.push_back(pair); }
  void on_clock(const ClockPoint &point) override { out_.clock.push_back(point); }

private:
  BlobAnalysis &out_;
};

class Pipeline {
public:
  Pipeline(const Capture &capture, const AnalysisRequest &request, const ProgressSink &progress)
      : capture_(capture), request_(request), progress_(progress) {}

  CaptureAnalysis run() {
    result_.capture = &capture_;
    result_.cdna = family_of_device(capture_.device) == sqtt::Family::Cdna;
    result_.analyzer = std::make_shared<CaptureAnalyzer>(capture_, request_.options);
    for (const auto &program : capture_.programs) add_kernel(program.tag, &program);
    std::uint64_t total = 0;
    for (const auto &blob : capture_.blobs)
      if (selected(blob)) total += blob.size;
    std::uint64_t done = 0;
    for (const auto &blob : capture_.blobs) {
      if (!selected(blob)) continue;
      check_cancel();
      analyze(blob, done, total);
      done += blob.size;
    }
    if (progress_) progress_({"analyze", total, total, "bytes"});
    if (request_.pmc) add_counters();
    return std::move(result_);
  }

private:
  bool selected(const CaptureBlob &blob) const {
    return (request_.kernel.empty() || blob.program == request_.kernel) &&
           (request_.blob.empty() || blob.file_name == request_.blob);
  }

  void check_cancel() const {
    if (request_.cancel && request_.cancel->stop_requested())
      throw Error(ErrorKind::Interrupted,
                  fmt::format("{}: the analysis was stopped on request", capture_.source.string()));
  }

  KernelAnalysis &add_kernel(std::uint32_t tag, const CaptureProgram *program) {
    auto &k = result_.kernels.emplace_back();
    k.tag = tag;
    k.program = program;
    k.name = program ? program->name : std::to_string(tag);
    if (request_.pc_stats)
      k.pc_stats = std::make_unique<PcStatsAccumulator>(result_.analyzer->program(tag));
    return k;
  }

  KernelAnalysis &kernel_of(const CaptureBlob &blob) {
    for (auto &k : result_.kernels)
      if (k.tag == blob.kernel_tag) return k;
    result_.notes.push_back(
        fmt::format("{}: belongs to kernel tag {}, which meta.json does not list", blob.file_name,
                    blob.kernel_tag));
    return add_kernel(blob.kernel_tag, nullptr);
  }

  void analyze(const CaptureBlob &blob, std::uint64_t done, std::uint64_t total) {
    KernelAnalysis &kernel = kernel_of(blob);
    CaptureAnalyzer &analyzer = *result_.analyzer;
    BlobAnalysis b;
    b.blob = &blob;

    ClockSummary clock;
    AnalysisSinks sinks;
    sinks.clock = &clock;
    std::optional<TimelineBuilder> timeline;
    if (request_.timeline) sinks.timeline = &timeline.emplace(blob.se, blob.file_name);
    std::optional<WaveTraceCollector> waves;
    if (request_.waves) sinks.waves = &waves.emplace(true, request_.instruction_records);
    std::optional<RealtimeCollector> realtime;
    if (request_.realtime) sinks.observer = &realtime.emplace(b);
    PcStatsAccumulator *stats = kernel.pc_stats.get();
    if (stats && request_.blob_pc_stats) {
      b.pc_stats = std::make_unique<PcStatsAccumulator>(analyzer.program(blob.kernel_tag));
      stats = b.pc_stats.get();
    }
    // On RDNA the statistics come from the BlobAnalyzer's mapped dispatches; on CDNA, where it
    // maps no PC (as tinygrad), from CdnaMapper's walk of the CDNA_INST packets, a tap on the
    // same decode pass.
    if (stats && !result_.cdna) sinks.pc_stats = stats;

    const ProgressSink sink = [&](const ProgressUpdate &u) {
      check_cancel();
      if (progress_) progress_({"analyze", done + u.done, total, "bytes"});
    };
    if (result_.cdna && (stats || waves)) {
      std::vector<CdnaMappedInstruction> mapped;
      std::vector<CdnaMappedWave> mapped_waves;
      // The walk's instructions, timed as rocprof-trace-decoder times them, on the analyzer's
      // clock (the tap sees the clock stage's packets).
      CdnaMapper mapper(
          analyzer.program(blob.kernel_tag),
          [&](const CdnaMappedInstruction &i) {
            if (stats) {
              DispatchEvent e;
              e.instruction = i.instruction;
              e.issue_gap = i.issue_gap;
              e.stall = i.stall;
              e.duration = i.duration;
              stats->on_dispatch(e);
            }
            if (waves) mapped.push_back(i);
          },
          [&](const CdnaMappedWave &w) {
            if (waves) mapped_waves.push_back(w);
          });
      b.report = analyzer.analyze(
          blob, sinks, [&](const sqtt::Packet &p) { mapper.on_packet(p); }, &sink);
      mapper.finish();
      b.cdna_mapping = mapper.report();
      add_to(result_.cdna_mapping, b.cdna_mapping);
      if (waves) {
        b.waves = waves->take();
        attach_cdna_streams(mapped, mapped_waves, request_.instruction_records, b.waves);
      }
    } else {
      b.report = analyzer.analyze(blob, sinks, {}, &sink);
      if (waves) b.waves = waves->take();
    }
    if (timeline) {
      b.timeline = timeline->finish();
      // CDNA states come from the walk, after the timeline's events: its traced waves' rows.
      if (result_.cdna)
        for (const auto &t : b.waves)
          if (t.wave.traced) add_wave_states(b.timeline, t.wave.slot, t.wave.end, t.states);
    }
    b.traced_waves = b.report.traced_waves;
    b.mapped_instructions = b.report.mapped_instructions;
    b.clock_points = clock.points();
    b.clock_median_hz = clock.median_hz();
    if (b.pc_stats) kernel.pc_stats->merge(*b.pc_stats);
    kernel.waves += b.report.waves;
    kernel.blobs.push_back(analysed_++);
    note_blob_problems(b, result_.notes);
    if (request_.on_blob)
      request_.on_blob(std::move(b));
    else
      result_.blobs.push_back(std::move(b));
  }

  void add_counters() {
    for (auto &counters : pmc::decode_capture(capture_, progress_)) {
      if (!request_.kernel.empty() && counters.kernel != request_.kernel) continue;
      for (auto &k : result_.kernels)
        if (k.tag == counters.kernel_tag) {
          k.counters.push_back(std::move(counters));
          break;
        }
    }
  }

  const Capture &capture_;
  const AnalysisRequest &request_;
  const ProgressSink &progress_;
  CaptureAnalysis result_;
  std::size_t analysed_ = 0;  // blobs so far
};

}  // namespace

bool CaptureAnalysis::selection_found(const AnalysisRequest &request) const {
  if (request.kernel.empty() && request.blob.empty()) return true;
  for (const auto &k : kernels)
    if (!k.blobs.empty()) return true;
  return false;
}

const KernelAnalysis *CaptureAnalysis::kernel(std::uint32_t tag) const {
  for (const auto &k : kernels)
    if (k.tag == tag) return &k;
  return nullptr;
}

CaptureAnalysis analyze_capture(const Capture &capture, const AnalysisRequest &request,
                                const ProgressSink &progress) {
  return Pipeline(capture, request, progress).run();
}

}  // namespace wavescope::trace::timeline
