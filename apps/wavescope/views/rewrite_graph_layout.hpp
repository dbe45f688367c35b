#pragma once
// Sizes and positions for a rewrite graph: node labels measured with the view's fonts, then laid
// out left to right by Graphviz dot (sources on the left, consumers on the right, as tinygrad VIZ
// draws UOp graphs). Safe to run off the GUI thread.

#include <QFont>
#include <QSizeF>

#include <vector>

#include "layout/graph_layout.hpp"

namespace wavescope::gui {

struct RewriteGraph;
struct RewriteGraphNode;

struct RewriteNodeFonts {
  QFont title;       // the op
  QFont detail;      // dtype and interval (beside the op), arg, folded constants
  QFont expression;  // what the node computes (monospace)
};
const RewriteNodeFonts &rewrite_node_fonts();

constexpr double kRewriteNodePadding = 5;
constexpr double kRewriteSubtitleGap = 6;  // between the op and the dtype on the title line

// The size of a node's box: its label plus padding.
QSizeF rewrite_node_size(const RewriteGraphNode &node);

enum class GraphDirection { LeftToRight, TopToBottom };

// Lays the graph out with sources first in `direction`; node rectangles come back in the graph's
// node order and edge splines in its edge order. Throws wavescope::Error when Graphviz fails.
GraphLayout layout_rewrite_graph(const RewriteGraph &graph,
                                 GraphDirection direction = GraphDirection::LeftToRight);

}  // namespace wavescope::gui
