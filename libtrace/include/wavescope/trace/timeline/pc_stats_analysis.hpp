#pragma once
// Per-PC instruction statistics of one blob, computed one way for every caller (`wavectl sqtt
// insts`, the app's capture loading): a single decode pass feeds the kernel's PcStatsAccumulator
// and the caller's own observers. On RDNA the statistics come from the BlobAnalyzer's mapped
// dispatches; on CDNA, where the BlobAnalyzer maps no PC (as tinygrad), from CdnaMapper's walk of
// the CDNA_INST packets.

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"

namespace wavescope::trace::timeline {

struct BlobPcStatsReport {
  BlobReport blob;
  bool cdna = false;
  CdnaMappingReport cdna_mapping;  // CDNA only
};

// Analyzes `blob` into `stats` (built on analyzer.program(blob.kernel_tag)) and, when given,
// `observer` (waves, timeline, clock ...). `progress` reports the blob's bytes; a sink that throws
// cancels the analysis.
BlobPcStatsReport analyze_pc_stats(CaptureAnalyzer &analyzer, const CaptureBlob &blob,
                                   PcStatsAccumulator &stats, AnalysisObserver *observer = nullptr,
                                   const ProgressSink *progress = nullptr);

// Sums the mapping reports of several blobs (the first mismatch is the first one met).
void add_to(CdnaMappingReport &total, const CdnaMappingReport &blob);

}  // namespace wavescope::trace::timeline
