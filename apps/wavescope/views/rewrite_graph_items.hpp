#pragma once
// The items of the rewrite graph scene: a node box (fill by op, label lines, the step's marks, the
// selection's highlight) and an edge (spline, arrow head, operand-slot and multiplicity badges).

#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>

#include <vector>

#include "models/rewrite_graph.hpp"
#include "models/rewrite_op_style.hpp"

namespace wavescope::gui {

QColor rewrite_change_color();    // the step's change: outline and glow
QColor rewrite_source_color();    // sources of the selected node (VIZ: parents green)
QColor rewrite_consumer_color();  // consumers of the selected node (VIZ: children pink)

enum class RewriteHighlight { None, Selected, Source, Consumer };

// One node: a box in its op's color with the label lines.
class RewriteNodeItem : public QGraphicsItem {
public:
  RewriteNodeItem(const RewriteGraphNode &node, int index, QSizeF size)
      : node_(node), index_(index), size_(size), style_(op_style(node.uop.op())) {
    setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    setToolTip(node.expression.isEmpty() ? node.title
                                         : node.title + QStringLiteral("  ") + node.expression);
  }

  int index() const { return index_; }
  QRectF boundingRect() const override {
    return QRectF(QPointF(0, 0), size_).adjusted(-6, -6, 6, 6);
  }
  void set_highlight(RewriteHighlight h) {
    if (h == highlight_) return;
    highlight_ = h;
    update();
  }

  void paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) override;

private:
  const RewriteGraphNode &node_;
  int index_;
  QSizeF size_;
  OpStyle style_;
  RewriteHighlight highlight_ = RewriteHighlight::None;
};

// One edge: the spline from a source to its consumer, an arrow head, and badges for the operand
// slot and for a source feeding several slots.
class RewriteEdgeItem : public QGraphicsItem {
public:
  RewriteEdgeItem(const RewriteGraphEdge &edge, const std::vector<QPointF> &points, QPointF tip,
                  bool show_port);

  const RewriteGraphEdge &edge() const { return edge_; }
  void set_highlight(RewriteHighlight h) {
    if (h == highlight_) return;
    highlight_ = h;
    setZValue(h == RewriteHighlight::None ? -1 : -0.5);
    update();
  }

  QRectF boundingRect() const override {
    return path_.boundingRect().united(QRectF(tip_, QSizeF(1, 1))).adjusted(-14, -14, 14, 14);
  }

  void paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) override;

private:
  RewriteGraphEdge edge_;
  QPainterPath path_;
  QPointF tip_;
  double angle_ = 0;
  bool show_port_;
  RewriteHighlight highlight_ = RewriteHighlight::None;
};

}  // namespace wavescope::gui
