#pragma once
// What `wavectl sqtt timeline` reports per blob, and its printers: the blob's timeline model as
// JSON events in the corpus' timeline.jsonl form (shader-clock points, then each row's ranges;
// one object per line, keys sorted) and as a text summary of its rows.

#include <string>

#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"

namespace wavescope::trace::timeline {

struct SeTimelineReport {
  const CaptureBlob &blob;
  const SeTimeline &timeline;
};
std::string to_json(const SeTimelineReport &report);
std::string to_text(const SeTimelineReport &report);

}  // namespace wavescope::trace::timeline
