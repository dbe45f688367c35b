#include "models/rewrite_navigation.hpp"

#include <algorithm>

#include "app/rewrite_trace_document.hpp"

namespace wavescope::gui {

RewritePosition resolve_position(const RewriteTraceDocument &document, const Focus &focus) {
  RewritePosition position;
  if (const auto *pass = document.pass(focus.group, focus.pass)) {
    position.group = focus.group;
    position.pass = focus.pass;
    position.record = std::clamp(focus.step + 1, 0, static_cast<int>(pass->steps.size()));
    return position;
  }
  for (const RewritePassRef &ref : document.passes())
    if (focus.group < 0 || ref.group == focus.group) return {ref.group, ref.pass, 0};
  position.group = focus.group;
  return position;
}

Focus focus_of(int document, const RewritePosition &position) {
  Focus focus;
  focus.document = document;
  focus.group = position.group;
  focus.pass = position.pass;
  focus.step = position.valid() ? position.record - 1 : -1;
  return focus;
}

Focus step_focus(const RewriteTraceDocument &document, const Focus &focus, int delta) {
  RewritePosition position = resolve_position(document, focus);
  if (!position.valid()) return focus;
  const int steps = static_cast<int>(document.pass(position.group, position.pass)->steps.size());
  position.record = std::clamp(position.record + delta, 0, steps);
  return focus_of(focus.document, position);
}

Focus pass_focus(const RewriteTraceDocument &document, const Focus &focus, int delta) {
  const RewritePosition position = resolve_position(document, focus);
  if (!position.valid()) return focus;
  const int here = document.pass_position({position.group, position.pass});
  const int last = static_cast<int>(document.passes().size()) - 1;
  const RewritePassRef next =
      document.passes()[static_cast<std::size_t>(std::clamp(here + delta, 0, last))];
  return focus_of(focus.document, {next.group, next.pass, 0});
}

}  // namespace wavescope::gui
