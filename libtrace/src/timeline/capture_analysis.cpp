#include "wavescope/trace/timeline/capture_analysis.hpp"

#include <algorithm>

#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"

namespace wavescope::trace::timeline {

void ClockSummary::on_clock(const ClockPoint &point) {
  min_ = count_ ? std::min(min_, point.freq_hz) : point.freq_hz;
  max_ = count_ ? std::max(max_, point.freq_hz) : point.freq_hz;
  ++count_;
  sum_ += double(point.freq_hz);
  const auto mhz =
      static_cast<std::uint32_t>(std::clamp<std::int64_t>(point.freq_hz / 1'000'000, 0, kMaxMhz));
  if (histogram_.empty() && kept_mhz_.size() < kMaxKept) {
    kept_mhz_.push_back(mhz);
    return;
  }
  if (histogram_.empty()) {
    histogram_.assign(kMaxMhz + 1, 0);
    for (const auto m : kept_mhz_) ++histogram_[m];
    kept_mhz_ = {};
  }
  ++histogram_[mhz];
}

std::int64_t ClockSummary::median_hz() const {
  if (!count_) return 0;
  // The smallest MHz value v with at least half of the points at or below it.
  const std::uint64_t half = (count_ + 1) / 2;
  if (histogram_.empty()) {
    auto sorted = kept_mhz_;
    const auto nth = sorted.begin() + static_cast<std::ptrdiff_t>(half - 1);
    std::nth_element(sorted.begin(), nth, sorted.end());
    return std::int64_t{*nth} * 1'000'000 + 500'000;
  }
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < histogram_.size(); ++i) {
    seen += histogram_[i];
    if (seen >= half) return static_cast<std::int64_t>(i) * 1'000'000 + 500'000;
  }
  return 0;
}

std::optional<sqtt::Family> family_of_device(const DeviceProperties &device) {
  const unsigned major = device.gfx_target_version / 10000;
  if (major == 11) return sqtt::Family::Rdna3;
  if (major == 12) return sqtt::Family::Rdna4;
  if (major == 9) return sqtt::Family::Cdna;
  return std::nullopt;
}

namespace {

// Decodes `file` into `out`; NOP runs (most of a blob) mean nothing to the analysis: taken at once.
template <class Out>
sqtt::DecodeSummary decode_into(const sqtt::BlobFile &file, const sqtt::DecodeOptions &options,
                                const ProgressSink *progress, Out &&out) {
  struct Sink {
    Out &out;
    void operator()(const sqtt::Packet &p) { out(p); }
    void on_nops(const sqtt::Packet &, unsigned) {}
  } sink{out};
  return sqtt::decode_file(file, options, sink, progress);
}

}  // namespace

const ProgramMap &CaptureAnalyzer::program(std::uint32_t tag) {
  auto &slot = programs_[tag];
  if (!slot) {
    slot = std::make_unique<ProgramMap>();
    const CaptureProgram *p = capture_.program(tag);
    if (p) *slot = ProgramMap::load(p->code, capture_.device.processor);
  }
  return *slot;
}

BlobReport CaptureAnalyzer::analyze(const CaptureBlob &blob, AnalysisObserver &observer,
                                    const ProgressSink *progress,
                                    const sqtt::DecodeOptions &options) {
  return analyze(blob, observer, PacketTap{}, progress, options);
}

BlobReport CaptureAnalyzer::analyze(const CaptureBlob &blob, AnalysisObserver &observer,
                                    const PacketTap &tap, const ProgressSink *progress,
                                    const sqtt::DecodeOptions &options) {
  return analyze(blob, AnalysisSinks{.observer = &observer}, tap, progress, options);
}

BlobReport CaptureAnalyzer::analyze(const CaptureBlob &blob, const AnalysisSinks &sinks,
                                    const PacketTap &tap, const ProgressSink *progress,
                                    const sqtt::DecodeOptions &options) {
  BlobReport report;
  report.blob = &blob;
  const ProgramMap &map = program(blob.kernel_tag);
  if (blob_analyzer_)
    blob_analyzer_->reset(&map, blob.se, sinks);
  else
    blob_analyzer_ = std::make_unique<BlobAnalyzer>(&map, blob.se, sinks);
  BlobAnalyzer &analyzer = *blob_analyzer_;
  sqtt::BlobFile file(blob.bytes);
  // CDNA packets pass the clock stage first (the decoder's own times stay tinygrad's); other
  // packets go straight to the analyzer, the tap only where there is one (the per-packet path is
  // the whole cost of a large capture).
  const bool cdna = family_of_device(capture_.device) == sqtt::Family::Cdna;
  CdnaClockStage clock(cdna ? options_.cdna_clock : CdnaClock::Tinygrad);
  auto to_analyzer = [&](const sqtt::Packet &p) {
    if (tap) tap(p);
    analyzer.on_packet(p);
  };
  if (clock.clock() != CdnaClock::Tinygrad) {
    report.decode = decode_into(file, options, progress,
                                [&](const sqtt::Packet &p) { clock.on_packet(p, to_analyzer); });
    clock.finish(to_analyzer);
    report.cdna_clock = clock.report();
  } else if (tap) {
    report.decode = decode_into(file, options, progress, to_analyzer);
  } else {
    // Straight into the analyzer, its dispatch inlined into the decoder's loop.
    report.decode = analyzer.decode(file, options, progress);
  }
  analyzer.finish();
  report.anomalies = analyzer.anomalies();
  report.waves = analyzer.waves();
  report.traced_waves = analyzer.traced_waves();
  report.mapped_instructions = analyzer.mapped_instructions();
  return report;
}

}  // namespace wavescope::trace::timeline
