#include "views/rewrite_graph_items.hpp"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>

#include <cmath>

#include "app/theme.hpp"
#include "views/rewrite_graph_layout.hpp"

namespace wavescope::gui {

QColor rewrite_change_color() { return QColor(0xff, 0x9f, 0x1c); }
QColor rewrite_source_color() { return QColor(0x89, 0xc9, 0xa2); }
QColor rewrite_consumer_color() { return QColor(0xc8, 0x88, 0xb0); }

namespace {
QColor edge_color() { return QColor(0x6c, 0x70, 0x80); }
QColor badge_color() { return QColor(0xe8, 0xc3, 0x4f); }
}  // namespace

void RewriteNodeItem::paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) {
  const QRectF box(QPointF(0, 0), size_);
  p->setRenderHint(QPainter::Antialiasing);
  const bool changed =
      node_.mark == RewriteNodeMark::Replacement || node_.mark == RewriteNodeMark::Created;
  if (changed) {
    // A soft glow shows what the rule produced even when zoomed far out.
    QColor glow = rewrite_change_color();
    glow.setAlpha(70);
    p->setPen(Qt::NoPen);
    p->setBrush(glow);
    p->drawRoundedRect(box.adjusted(-5, -5, 5, 5), 7, 7);
  }
  const bool error = node_.uop.op() == compiler::Op::REWRITE_ERROR;
  QPen border(error ? QColor(0xf0, 0x50, 0x50) : QColor(0x4a, 0x4b, 0x57), error ? 2.0 : 1.2);
  if (changed) border = QPen(rewrite_change_color(), 2.4);
  if (node_.mark == RewriteNodeMark::Rebuilt)
    border = QPen(rewrite_change_color(), 1.6, Qt::DashLine);
  switch (highlight_) {
  case RewriteHighlight::Selected: border = QPen(Qt::white, 2.6); break;
  case RewriteHighlight::Source: border = QPen(rewrite_source_color(), 2.6); break;
  case RewriteHighlight::Consumer: border = QPen(rewrite_consumer_color(), 2.6); break;
  case RewriteHighlight::None: break;
  }
  p->setPen(border);
  p->setBrush(style_.fill);
  p->drawRoundedRect(box, 3, 3);

  const RewriteNodeFonts &fonts = rewrite_node_fonts();
  const QColor ink = text_color_on(style_.fill);
  double y = kRewriteNodePadding;
  auto line = [&](const QFont &font, const QString &text, const QColor &color) {
    const QFontMetricsF metrics(font);
    p->setFont(font);
    p->setPen(color);
    p->drawText(QPointF(kRewriteNodePadding, y + metrics.ascent()), text);
    y += metrics.height();
  };
  QColor soft = ink;
  soft.setAlphaF(0.78f);
  {
    // The op in bold, then dtype and interval in the detail font on the same baseline.
    const QFontMetricsF metrics(fonts.title);
    const double baseline = y + metrics.ascent();
    p->setFont(fonts.title);
    p->setPen(ink);
    p->drawText(QPointF(kRewriteNodePadding, baseline), node_.title);
    if (!node_.subtitle.isEmpty()) {
      p->setFont(fonts.detail);
      p->setPen(soft);
      p->drawText(QPointF(kRewriteNodePadding + metrics.horizontalAdvance(node_.title) +
                              kRewriteSubtitleGap,
                          baseline),
                  node_.subtitle);
    }
    y += metrics.height();
  }
  for (const QString &detail : node_.details) line(fonts.detail, detail, soft);
  if (!node_.expression.isEmpty()) {
    QColor expr = ink;
    expr.setAlphaF(0.62f);
    line(fonts.expression, node_.expression, expr);
  }
  if (node_.hidden_sources > 0)
    line(fonts.detail,
         QObject::tr("+%1 hidden source%2")
             .arg(node_.hidden_sources)
             .arg(node_.hidden_sources == 1 ? "" : "s"),
         soft);
}

RewriteEdgeItem::RewriteEdgeItem(const RewriteGraphEdge &edge, const std::vector<QPointF> &points,
                                 QPointF tip, bool show_port)
    : edge_(edge), tip_(tip), show_port_(show_port) {
  if (!points.empty()) {
    path_.moveTo(points.front());
    for (std::size_t k = 1; k + 2 < points.size(); k += 3)
      path_.cubicTo(points[k], points[k + 1], points[k + 2]);
    path_.lineTo(tip);
    const QPointF from =
        points.size() > 1 && points.back() == tip ? points[points.size() - 2] : points.back();
    angle_ = std::atan2(tip.y() - from.y(), tip.x() - from.x());
  }
  setZValue(-1);
}
void RewriteEdgeItem::paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) {
  if (path_.isEmpty()) return;
  p->setRenderHint(QPainter::Antialiasing);
  const QColor color = highlight_ == RewriteHighlight::Source     ? rewrite_source_color()
                       : highlight_ == RewriteHighlight::Consumer ? rewrite_consumer_color()
                                                                  : edge_color();
  p->setPen(QPen(color, highlight_ == RewriteHighlight::None ? 1.2 : 2.0));
  p->setBrush(Qt::NoBrush);
  p->drawPath(path_);
  QPolygonF head;
  head << tip_ << tip_ - QPointF(std::cos(angle_ - 0.42) * 8, std::sin(angle_ - 0.42) * 8)
       << tip_ - QPointF(std::cos(angle_ + 0.42) * 8, std::sin(angle_ + 0.42) * 8);
  p->setPen(Qt::NoPen);
  p->setBrush(color);
  p->drawPolygon(head);
  // Badges sit on the curve just before the arrow head.
  const QPointF at = tip_ - QPointF(std::cos(angle_) * 16, std::sin(angle_) * 16);
  QFont font = rewrite_node_fonts().detail;
  font.setPointSizeF(6.5);
  p->setFont(font);
  if (edge_.count > 1) {
    p->setBrush(badge_color());
    p->drawEllipse(at, 6.5, 6.5);
    p->setPen(Qt::black);
    p->drawText(QRectF(at - QPointF(6.5, 6.5), QSizeF(13, 13)), Qt::AlignCenter,
                QString::number(edge_.count));
  } else if (show_port_ || highlight_ != RewriteHighlight::None) {
    p->setBrush(QColor(0x2a, 0x2d, 0x36));
    p->setPen(QPen(color, 0.8));
    p->drawEllipse(at, 5.5, 5.5);
    p->setPen(theme::text());
    p->drawText(QRectF(at - QPointF(5.5, 5.5), QSizeF(11, 11)), Qt::AlignCenter,
                QString::number(edge_.port));
  }
}

}  // namespace wavescope::gui
