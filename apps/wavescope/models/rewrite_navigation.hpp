#pragma once
// Where a focus points in a rewrite trace, and the moves of the rewrite view's keys: ←/→ one step
// within the pass, ↑/↓ one pass along the trace (to its input graph).

#include "app/selection.hpp"

namespace wavescope::gui {

class RewriteTraceDocument;

// A pass and the record of it on show (0: the input graph, k: after step k).
struct RewritePosition {
  int group = -1;
  int pass = -1;
  int record = 0;
  bool valid() const { return pass >= 0; }
  bool operator==(const RewritePosition &) const = default;
};

// The record a focus shows: a step focus shows the graph after that step; a pass its input; a
// group its first pass; the document its first pass. Invalid when there is no pass to show.
RewritePosition resolve_position(const RewriteTraceDocument &document, const Focus &focus);
// The focus standing for a position (the navigator's item for it).
Focus focus_of(int document, const RewritePosition &position);
// The focus `delta` steps on within the pass, clamped to its input and its last step.
Focus step_focus(const RewriteTraceDocument &document, const Focus &focus, int delta);
// The focus on the input of the pass `delta` passes on in trace order, clamped to the ends.
Focus pass_focus(const RewriteTraceDocument &document, const Focus &focus, int delta);

}  // namespace wavescope::gui
