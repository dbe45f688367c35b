#pragma once
// Running the SQTT layers over a capture: each blob is decoded straight from where it lives
// (chunked, so blobs larger than memory work), replayed through a BlobAnalyzer with the code
// object of its kernel, and reported to the caller's observers.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"
#include "wavescope/trace/timeline/cdna_clock.hpp"
#include "wavescope/trace/timeline/events.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::timeline {

// Forwards every event to several observers.
class ObserverFanout : public AnalysisObserver {
public:
  explicit ObserverFanout(std::vector<AnalysisObserver *> observers)
      : observers_(std::move(observers)) {}
  void on_wave(const Wave &w) override {
    for (auto *o : observers_) o->on_wave(w);
  }
  void on_dispatch(const DispatchEvent &e) override {
    for (auto *o : observers_) o->on_dispatch(e);
  }
  void on_exec(const ExecEvent &e) override {
    for (auto *o : observers_) o->on_exec(e);
  }
  void on_barrier(const BarrierSpan &b) override {
    for (auto *o : observers_) o->on_barrier(b);
  }
  void on_clock(const ClockPoint &c) override {
    for (auto *o : observers_) o->on_clock(c);
  }
  void on_realtime(const RealtimePair &r) override {
    for (auto *o : observers_) o->on_realtime(r);
  }

private:
  std::vector<AnalysisObserver *> observers_;
};

// Shader-clock estimates of a blob in bounded memory: count, mean, extremes, and a median to
// 1 MHz. A blob has a few dozen points: they are kept as they come (work and memory scale with
// the points, not with a table); past kMaxKept they move into a 1 MHz histogram, which gives
// the same median.
class ClockSummary final : public AnalysisObserver {
public:
  void on_clock(const ClockPoint &point) override;
  std::uint64_t points() const { return count_; }
  double mean_hz() const { return count_ ? sum_ / double(count_) : 0.0; }
  std::int64_t min_hz() const { return min_; }
  std::int64_t max_hz() const { return max_; }
  // The median to 1 MHz (points above 20 GHz count as 20 GHz; the lower median of an even
  // count); 0 without points.
  std::int64_t median_hz() const;

  static constexpr std::size_t kMaxKept = 4096;
  static constexpr std::int64_t kMaxMhz = 20000;

private:
  std::uint64_t count_ = 0;
  double sum_ = 0;
  std::int64_t min_ = 0, max_ = 0;
  std::vector<std::uint32_t> kept_mhz_;   // every point's MHz while count_ <= kMaxKept
  std::vector<std::uint64_t> histogram_;  // kMaxMhz + 1 buckets once count_ > kMaxKept
};

// Counts waves and mapped instructions.
class WaveCounter final : public AnalysisObserver {
public:
  void on_wave(const Wave &w) override {
    ++waves;
    if (w.traced) ++traced_waves;
  }
  void on_dispatch(const DispatchEvent &e) override {
    if (e.has_pc && !e.inserted) ++mapped_instructions;
  }
  std::uint64_t waves = 0, traced_waves = 0, mapped_instructions = 0;
};

struct BlobReport {
  const CaptureBlob *blob = nullptr;
  sqtt::DecodeSummary decode;
  AnalysisAnomalies anomalies;
  std::uint64_t waves = 0;
  std::uint64_t traced_waves = 0, mapped_instructions = 0;  // as WaveCounter counts them
  CdnaClockReport cdna_clock;  // CDNA blobs: what the clock stage re-timed
};

// How a CaptureAnalyzer times what it reports (the decoded packets are never changed).
struct AnalysisOptions {
  // CDNA captures: the clock the waves, instructions and timeline events are timed on. Tinygrad
  // reproduces the corpus' waves.jsonl and timeline.jsonl; the default is rocprof-trace-decoder's
  // reading, which the packets support (cdna_clock.hpp).
  CdnaClock cdna_clock = CdnaClock::Ticked;
};

class CaptureAnalyzer {
public:
  explicit CaptureAnalyzer(const Capture &capture, AnalysisOptions options = {})
      : capture_(capture), options_(options) {}

  const Capture &capture() const { return capture_; }
  const AnalysisOptions &options() const { return options_; }
  // The PC map of a kernel (loaded once). On CDNA the BlobAnalyzer maps nothing (as tinygrad);
  // CdnaMapper uses it.
  const ProgramMap &program(std::uint32_t tag);

  // Sees every non-NOP packet of the blob, in order, before the analyzer does.
  using PacketTap = std::function<void(const sqtt::Packet &)>;

  // Decodes one blob from its source and replays it into `observer` (on CDNA through the
  // options' clock stage; the tap sees the re-timed packets too).
  BlobReport analyze(const CaptureBlob &blob, AnalysisObserver &observer,
                     const ProgressSink *progress = nullptr,
                     const sqtt::DecodeOptions &options = {});
  // The same, in one decode pass with `tap` (e.g. CdnaMapper, which follows CDNA packets the
  // analyzer does not map).
  BlobReport analyze(const CaptureBlob &blob, AnalysisObserver &observer, const PacketTap &tap,
                     const ProgressSink *progress = nullptr,
                     const sqtt::DecodeOptions &options = {});
  // The same into the consumers named in `sinks`, each called directly (blob_analyzer.hpp); the
  // report's counts need none.
  BlobReport analyze(const CaptureBlob &blob, const AnalysisSinks &sinks, const PacketTap &tap,
                     const ProgressSink *progress = nullptr,
                     const sqtt::DecodeOptions &options = {});

private:
  const Capture &capture_;
  AnalysisOptions options_;
  std::map<std::uint32_t, std::unique_ptr<ProgramMap>> programs_;
  std::unique_ptr<BlobAnalyzer> blob_analyzer_;  // reset for each blob (BlobAnalyzer::reset)
};

// The decode family a capture's device implies, nullopt if unknown.
std::optional<sqtt::Family> family_of_device(const DeviceProperties &device);

}  // namespace wavescope::trace::timeline
