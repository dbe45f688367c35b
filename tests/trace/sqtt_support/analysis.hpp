#pragma once
// Runs the timeline layer over one corpus blob with the observers a test wants.

#include <vector>

#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::testing::sqtt {

struct BlobAnalysis {
  trace::timeline::BlobReport report;
  std::vector<trace::timeline::WaveTrace> waves;
  trace::timeline::SeTimeline timeline;
};

inline BlobAnalysis analyze_blob(trace::timeline::CaptureAnalyzer &analyzer,
                                 const trace::CaptureBlob &blob) {
  trace::timeline::WaveTraceCollector waves;
  trace::timeline::TimelineBuilder timeline(blob.se, blob.file_name);
  trace::timeline::ObserverFanout fanout({&waves, &timeline});
  BlobAnalysis out;
  out.report = analyzer.analyze(blob, fanout);
  out.waves = waves.take();
  out.timeline = timeline.finish();
  return out;
}

}  // namespace wavescope::testing::sqtt
