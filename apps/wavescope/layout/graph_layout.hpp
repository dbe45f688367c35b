#pragma once
// Hierarchical graph layout with Graphviz's dot engine, for the CFG and rewrite-graph views.
// Sizes and coordinates are in scene units (points); y grows downwards like Qt's.

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <cstddef>
#include <vector>

namespace wavescope::gui {

struct LayoutEdgeRequest {
  std::size_t from = 0;
  std::size_t to = 0;
  bool constrain = true;  // false: the edge does not influence ranking (e.g. loop back edges)
};

struct GraphLayout {
  std::vector<QRectF> nodes;                // one rectangle per requested node
  std::vector<std::vector<QPointF>> edges;  // cubic B-spline control points per edge
  std::vector<QPointF> arrow_tips;          // where each edge's arrow head points
  QRectF bounds;
};

// Lays out nodes of the given sizes with the given edges, top to bottom. Thread-safe (Graphviz
// is not, so calls are serialised). Throws wavescope::Error if Graphviz fails.
GraphLayout layout_graph(const std::vector<QSizeF> &node_sizes,
                         const std::vector<LayoutEdgeRequest> &edges, double node_separation = 24,
                         double rank_separation = 36);

}  // namespace wavescope::gui
