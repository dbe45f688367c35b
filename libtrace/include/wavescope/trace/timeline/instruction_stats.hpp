#pragma once
// What `wavectl sqtt insts` reports, and its printers: per kernel of a capture, per-PC timing over
// every mapped wave (hits, issue-gap statistics, execution cycles, cost %), accumulated in bounded
// memory; on CDNA from wavescope's own walk of the CDNA_INST packets (tinygrad maps none). JSON:
// one object per instruction (keys sorted); text: one table per kernel.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"

namespace wavescope::trace::timeline {

class CaptureAnalyzer;

struct KernelInstructionStats {
  std::string kernel;  // the program's name, or its tag as a number
  std::uint32_t tag = 0;
  std::unique_ptr<PcStatsAccumulator> stats;
};

struct CaptureInstructionStats {
  std::vector<KernelInstructionStats> kernels;  // by kernel tag
  bool kernel_found = false;                    // some blob is of the kernel asked for (or none)
  bool cdna = false;
  CdnaMappingReport cdna_mapping;             // summed over the blobs (CDNA only)
  std::shared_ptr<CaptureAnalyzer> analyzer;  // owns the program maps the rows point into
};

// Accumulates the blobs of `kernel` (empty: every blob); reports "analyze" progress in bytes.
// `capture` must outlive the result.
CaptureInstructionStats collect_instruction_stats(const Capture &capture, const std::string &kernel,
                                                  const ProgressSink &progress = {},
                                                  const AnalysisOptions &options = {});

std::string to_json(const CaptureInstructionStats &stats);
std::string to_text(const CaptureInstructionStats &stats);

}  // namespace wavescope::trace::timeline
