#pragma once
// What `wavectl sqtt clock` reports, and its printers: per blob, the realtime markers that pair
// the SE's shader clock with the 100 MHz realtime counter (rocprof-trace-decoder's REALTIME
// records), with the shader-clock frequency each consecutive pair gives. JSON: one object per
// pair (keys sorted); text: a summary and a table per blob.

#include <string>

#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {

// `analysis` was asked for realtime pairs (AnalysisRequest::realtime).
struct ClockReport {
  const CaptureAnalysis &analysis;
};
std::string to_json(const ClockReport &report);
std::string to_text(const ClockReport &report);

}  // namespace wavescope::trace::timeline
