#pragma once
// What a selection links to across the open documents, and back:
//  * a kernel run of a profile (a device span, or a launch that left no span) → the kernel's
//    program (ISA/CFG) in a document that has its code, and its codegen context in a rewrite
//    trace of the same run (a rewrites.pkl beside the profile, or a trace whose context keys hold
//    the span's profile key);
//  * a kernel of a capture or code object → its runs in the profile timeline, and its codegen
//    context;
//  * a rewrite context → the runs of that kernel in the profiles of the same run.
// Names match as tinygrad writes them (color escapes included: E_2 with an upcast axis is not E_2
// with a global one), else by their plain text.

#include <QString>

#include <cstdint>
#include <vector>

#include "models/search_model.hpp"

namespace wavescope::gui {

class Workspace;

struct Link {
  QString kind;   // "isa", "cfg", "rewrite", "run"
  QString label;  // what the link says
  Target target;
  bool operator==(const Link &) const = default;
};

// Links of a profile item (a span, a moment: the run launched then).
std::vector<Link> links_of_item(const Workspace &workspace, const ProfileItem &item);
// Links of a navigator focus (a kernel, a rewrite context).
std::vector<Link> links_of_focus(const Workspace &workspace, const Focus &focus);

}  // namespace wavescope::gui
