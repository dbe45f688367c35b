#pragma once
// The whole analysis of a capture in one call, for every tool that shows one (`wavectl sqtt
// stats|waves|insts|timeline`, the app's capture loading, its report export): the blobs of the
// kernels asked for, each decoded once from where it lives and replayed into the parts asked for
// (waves with their instruction streams, CDNA's included; per-PC statistics; the VIZ timeline;
// shader-clock / realtime pairs), the shader clock of each blob, the kernels' merged statistics and
// their PMC counters. Progress is reported in bytes ("analyze") and samples ("pmc"); a CancelToken
// stops it between chunks.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_sample.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::trace::timeline {

struct BlobAnalysis;

struct AnalysisRequest {
  std::string kernel;               // only the blobs of this program (empty: every kernel)
  std::string blob;                 // only the blob of this file name (empty: every blob)
  bool waves = false;               // every wave, the traced ones with their instruction streams
  bool instruction_records = true;  // with waves: keep each instruction (false: count them)
  bool pc_stats = false;            // per-PC statistics per kernel
  bool blob_pc_stats = false;       // ... and per blob as well
  bool timeline = false;            // the VIZ timeline model of each blob
  bool pmc = false;                 // the PMC counters of each kernel
  bool realtime = false;            // each blob's shader-clock / realtime pairs and clock points
  AnalysisOptions options;          // the CDNA clock
  const CancelToken *cancel = nullptr;
  // When set, each blob's analysis is handed over as it finishes instead of being kept in
  // CaptureAnalysis::blobs, so a capture of any number of blobs is analysed in bounded memory.
  std::function<void(BlobAnalysis &&)> on_blob;
};

// One blob, analysed.
struct BlobAnalysis {
  const CaptureBlob *blob = nullptr;
  BlobReport report;  // decode summary, anomalies, waves
  std::uint64_t traced_waves = 0, mapped_instructions = 0;
  std::uint64_t clock_points = 0;
  std::int64_t clock_median_hz = 0;
  CdnaMappingReport cdna_mapping;      // CDNA, with waves or statistics asked for
  std::vector<WaveTrace> waves;        // in the order the waves ended
  std::vector<RealtimePair> realtime;  // the realtime markers, in trace order
  std::vector<ClockPoint> clock;       // the frequency estimate at each marker after the first
  std::unique_ptr<PcStatsAccumulator> pc_stats;
  SeTimeline timeline;
};

// One kernel (program) of the capture and what its blobs gave.
struct KernelAnalysis {
  std::uint32_t tag = 0;
  std::string name;                              // the program's name, or its tag as a number
  const CaptureProgram *program = nullptr;       // nullptr: blobs of a tag meta.json does not list
  std::vector<std::size_t> blobs;                // indices into CaptureAnalysis::blobs
  std::unique_ptr<PcStatsAccumulator> pc_stats;  // merged over its blobs
  std::uint64_t waves = 0;
  std::vector<pmc::DispatchCounters> counters;
};

struct CaptureAnalysis {
  const Capture *capture = nullptr;
  bool cdna = false;
  std::vector<BlobAnalysis> blobs;      // the blobs selected, in capture order (without on_blob)
  std::vector<KernelAnalysis> kernels;  // every program in meta.json order, then unlisted tags
  CdnaMappingReport cdna_mapping;       // summed over the blobs
  std::vector<std::string> notes;       // decode oddities worth telling the user, per blob
  std::shared_ptr<CaptureAnalyzer> analyzer;  // owns the program maps the results point into

  // Some blob matched the request's kernel and blob names (true when it named none).
  bool selection_found(const AnalysisRequest &request) const;
  const KernelAnalysis *kernel(std::uint32_t tag) const;
};

// Analyses `capture` (which must outlive the result). Throws wavescope::Error (Interrupted) when
// `request.cancel` asks to stop, and what reading a blob or program throws.
CaptureAnalysis analyze_capture(const Capture &capture, const AnalysisRequest &request,
                                const ProgressSink &progress = {});

}  // namespace wavescope::trace::timeline
