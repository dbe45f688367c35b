#pragma once
// The navigator's children of a rewrite trace: group (kernel/context) -> pass (nested by depth, as
// tinygrad's VIZ lists them: "name - N" with N the step count) -> step (rule name).

class QStandardItem;

namespace wavescope::gui {

class Document;

// Adds the groups, passes and steps of a rewrite-trace document under `root`.
void add_rewrite_trace_children(QStandardItem &root, const Document &document, int document_index);

}  // namespace wavescope::gui
