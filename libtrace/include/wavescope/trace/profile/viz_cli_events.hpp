#pragma once
// A profile's events as tinygrad VIZ's command line lists them (`python -m tinygrad.viz.cli
// [--json]`, spec viz.md 2.11): first every source that is not a timeline (memory and counter
// tracks, the per-dispatch "<kernel> PMC" and "<kernel> SQTT SE:<n> PKTS" sources), then every
// span of every timeline track merged by start, markers interleaved.
//
// VIZ lists times as its binary profile packs them (a.7): starts in whole microseconds, durations
// as 32-bit floats. `VizTimes::Packed` reproduces those figures exactly; `VizTimes::Exact` gives
// the profile's own picosecond times instead.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

enum class VizTimes { Packed, Exact };

struct VizCliEvent {
  enum class Kind { Source, Span, Marker } kind = Kind::Span;
  std::string device;  // the track's name; "SOURCE" or "MARKER" for those lines
  std::string name;    // as tinygrad wrote it (ANSI colors kept)
  double st_ms = 0;
  std::optional<double> dur_ms;  // spans only
  // VIZ's extra fields ("fmt"): key and JSON-encoded value, in VIZ's order.
  std::vector<std::pair<std::string, std::string>> fields;
  std::string ext;  // the call stack lines VIZ prints at DEBUG >= 3
};

std::vector<VizCliEvent> viz_cli_events(const Profile &profile, VizTimes times = VizTimes::Packed);

// One JSON object per line: {"device","name","dur_ms","st_ms","fmt","ref","ext"} (sources and
// markers without dur_ms), as VIZ's --json.
void print_viz_cli_json(std::ostream &out, const std::vector<VizCliEvent> &events);
// VIZ's text lines: "*** DEVICE  name  tm <duration>/<start>ms (fields)", "--- SOURCE name".
void print_viz_cli_text(std::ostream &out, const std::vector<VizCliEvent> &events);

}  // namespace wavescope::trace::profile
