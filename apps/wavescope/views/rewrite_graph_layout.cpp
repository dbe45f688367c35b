#include "views/rewrite_graph_layout.hpp"

#include <QFontDatabase>
#include <QFontMetricsF>

#include <algorithm>

#include "models/rewrite_graph.hpp"

namespace wavescope::gui {

const RewriteNodeFonts &rewrite_node_fonts() {
  static const RewriteNodeFonts fonts = [] {
    RewriteNodeFonts f;
    f.title = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    f.title.setPointSizeF(8.5);
    f.title.setBold(true);
    f.detail = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    f.detail.setPointSizeF(7.5);
    f.expression = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.expression.setPointSizeF(7.5);
    return f;
  }();
  return fonts;
}

QSizeF rewrite_node_size(const RewriteGraphNode &node) {
  const RewriteNodeFonts &fonts = rewrite_node_fonts();
  const QFontMetricsF title(fonts.title), detail(fonts.detail), expression(fonts.expression);
  double width = title.horizontalAdvance(node.title);
  if (!node.subtitle.isEmpty())
    width += kRewriteSubtitleGap + detail.horizontalAdvance(node.subtitle);
  double height = title.height();
  for (const QString &line : node.details) {
    width = std::max(width, detail.horizontalAdvance(line));
    height += detail.height();
  }
  if (!node.expression.isEmpty()) {
    width = std::max(width, expression.horizontalAdvance(node.expression));
    height += expression.height();
  }
  if (node.hidden_sources > 0) height += detail.height();
  return {std::ceil(width) + 2 * kRewriteNodePadding, std::ceil(height) + 2 * kRewriteNodePadding};
}

GraphLayout layout_rewrite_graph(const RewriteGraph &graph, GraphDirection direction) {
  std::vector<QSizeF> sizes;
  sizes.reserve(graph.nodes.size());
  const bool across = direction == GraphDirection::LeftToRight;
  for (const RewriteGraphNode &node : graph.nodes) {
    const QSizeF size = rewrite_node_size(node);
    sizes.push_back(across ? size.transposed() : size);
  }
  std::vector<LayoutEdgeRequest> edges;
  edges.reserve(graph.edges.size());
  for (const auto &edge : graph.edges) edges.push_back({edge.from, edge.to, true});
  GraphLayout layout = layout_graph(sizes, edges, /*node_separation=*/across ? 12 : 16,
                                    /*rank_separation=*/across ? 40 : 24);
  if (!across) return layout;
  // dot lays out top to bottom; laying out the transposed boxes and transposing the result back
  // gives the left-to-right layout (a reflection keeps boxes apart and splines smooth).
  auto flip = [](QPointF p) { return QPointF(p.y(), p.x()); };
  for (QRectF &r : layout.nodes) r = QRectF(flip(r.topLeft()), r.size().transposed());
  for (auto &spline : layout.edges)
    for (QPointF &p : spline) p = flip(p);
  for (QPointF &tip : layout.arrow_tips) tip = flip(tip);
  layout.bounds = QRectF(flip(layout.bounds.topLeft()), layout.bounds.size().transposed());
  return layout;
}

}  // namespace wavescope::gui
