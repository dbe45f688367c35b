#include "views/rewrite_graph_view.hpp"

#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QKeyEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "app/theme.hpp"
#include "models/rewrite_op_style.hpp"
#include "views/rewrite_graph_items.hpp"
#include "views/rewrite_graph_layout.hpp"

namespace wavescope::gui {

namespace {

// Operand order matters for the edges into these (a//b is not b//a): when two or more sources
// are drawn, their slot numbers show.
bool operand_order_matters(const RewriteGraph &graph, std::size_t consumer) {
  if (compiler::ops::kCommutative.contains(graph.nodes[consumer].uop.op())) return false;
  return std::count_if(graph.edges.begin(), graph.edges.end(),
                       [&](const RewriteGraphEdge &e) { return e.to == consumer; }) >= 2;
}

// Room kept free around a fitted graph, in pixels: 16 as VIZ's fit, more at the top for the
// caption.
constexpr double kFitMargin = 16;
constexpr double kCaptionRoom = 22;

}  // namespace

RewriteGraphView::RewriteGraphView(QWidget *parent) : QGraphicsView(parent) {
  setScene(new QGraphicsScene(this));
  setBackgroundBrush(theme::background());
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
  setFocusPolicy(Qt::StrongFocus);
  setFrameShape(QFrame::NoFrame);
  // Drag and the wheel pan; the scene's generous margins would only make scroll bars noise.
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void RewriteGraphView::show_graph(std::shared_ptr<const RewriteGraph> graph,
                                  std::shared_ptr<const GraphLayout> layout, bool refit) {
  scene()->clear();
  nodes_.clear();
  edges_.clear();
  selected_ = -1;
  message_.clear();
  graph_ = std::move(graph);
  layout_ = std::move(layout);
  if (!graph_ || !layout_) return;
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const QRectF r = layout_->nodes[i];
    auto *item = new RewriteNodeItem(graph_->nodes[i], static_cast<int>(i), r.size());
    item->setPos(r.topLeft());
    scene()->addItem(item);
    nodes_.push_back(item);
  }
  for (std::size_t e = 0; e < graph_->edges.size(); ++e) {
    const RewriteGraphEdge &edge = graph_->edges[e];
    auto *item = new RewriteEdgeItem(edge, layout_->edges[e], layout_->arrow_tips[e],
                                     operand_order_matters(*graph_, edge.to));
    scene()->addItem(item);
    edges_.push_back(item);
  }
  // Margins sized for the view: panning can bring every edge of the graph to the middle.
  const double margin_x = std::max(40.0, viewport()->width() / 2.0);
  const double margin_y = std::max(40.0, viewport()->height() / 2.0);
  scene()->setSceneRect(layout_->bounds.adjusted(-margin_x, -margin_y, margin_x, margin_y));
  if (refit || !user_zoomed_) {
    user_zoomed_ = false;
    auto_fit();
  }
  viewport()->update();
}

void RewriteGraphView::show_message(const QString &message) {
  show_graph(nullptr, nullptr, true);
  message_ = message;
  scene()->setSceneRect(QRectF());
  viewport()->update();
}

void RewriteGraphView::set_busy_note(const QString &note) {
  busy_note_ = note;
  viewport()->update();
}

void RewriteGraphView::set_caption(const QString &caption) {
  caption_ = caption;
  viewport()->update();
}

QRectF RewriteGraphView::node_rect(int index) const {
  if (index < 0 || index >= static_cast<int>(nodes_.size())) return {};
  return layout_->nodes[static_cast<std::size_t>(index)];
}

void RewriteGraphView::select_node(int index) {
  if (index >= static_cast<int>(nodes_.size())) index = -1;
  selected_ = index;
  std::set<std::size_t> sources, consumers;
  if (graph_ && index >= 0)
    for (const auto &edge : graph_->edges) {
      if (edge.to == static_cast<std::size_t>(index)) sources.insert(edge.from);
      if (edge.from == static_cast<std::size_t>(index)) consumers.insert(edge.to);
    }
  for (auto *item : nodes_) {
    const auto i = static_cast<std::size_t>(item->index());
    item->set_highlight(item->index() == index ? RewriteHighlight::Selected
                        : sources.count(i)     ? RewriteHighlight::Source
                        : consumers.count(i)   ? RewriteHighlight::Consumer
                                               : RewriteHighlight::None);
  }
  for (auto *item : edges_) {
    const auto &edge = item->edge();
    item->set_highlight(index < 0                                      ? RewriteHighlight::None
                        : edge.to == static_cast<std::size_t>(index)   ? RewriteHighlight::Source
                        : edge.from == static_cast<std::size_t>(index) ? RewriteHighlight::Consumer
                                                                       : RewriteHighlight::None);
  }
  viewport()->update();
}

double RewriteGraphView::fit_scale(const QRectF &rect) const {
  const QSizeF room(viewport()->width() - 2 * kFitMargin,
                    viewport()->height() - 2 * kFitMargin - kCaptionRoom);
  if (room.width() <= 0 || room.height() <= 0) return 0;
  return std::min({room.width() / std::max(rect.width(), 1.0),
                   room.height() / std::max(rect.height(), 1.0), 1.3});
}

void RewriteGraphView::fit() {
  if (nodes_.empty()) return;
  const QRectF bounds = layout_->bounds;
  const double scale = fit_scale(bounds);
  if (scale <= 0) return;
  setTransform(QTransform::fromScale(scale, scale));
  // The caption's room is above the graph: centre a little lower.
  centerOn(bounds.center() - QPointF(0, kCaptionRoom / 2 / scale));
}

void RewriteGraphView::auto_fit() {
  if (nodes_.empty()) return;
  const double whole = fit_scale(layout_->bounds);
  // Below this scale label text is too small to read.
  constexpr double kReadable = 0.6;
  QRectF change;
  for (RewriteNodeMark wanted : {RewriteNodeMark::Created, RewriteNodeMark::Rebuilt}) {
    for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
      const RewriteNodeMark mark = graph_->nodes[i].mark;
      const bool match =
          wanted == RewriteNodeMark::Created
              ? mark == RewriteNodeMark::Created || mark == RewriteNodeMark::Replacement
              : mark == RewriteNodeMark::Rebuilt;
      if (match) change = change.united(layout_->nodes[i]);
    }
    if (!change.isNull()) break;
  }
  if (whole >= kReadable || change.isNull() || whole <= 0) {
    fit();
    return;
  }
  const double scale =
      std::max(whole, std::min(0.95, fit_scale(change.adjusted(-90, -70, 90, 70))));
  setTransform(QTransform::fromScale(scale, scale));
  centerOn(change.center());
}

bool RewriteGraphView::shows_part() const {
  if (nodes_.empty()) return false;
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  return !visible.contains(layout_->bounds);
}

void RewriteGraphView::zoom(double factor) {
  user_zoomed_ = true;
  scale(factor, factor);
}

void RewriteGraphView::wheelEvent(QWheelEvent *event) {
  if (event->modifiers() & Qt::ControlModifier) {
    zoom(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

void RewriteGraphView::keyPressEvent(QKeyEvent *event) {
  switch (event->key()) {
  case Qt::Key_Left: emit step_requested(-1); return;
  case Qt::Key_Right: emit step_requested(1); return;
  case Qt::Key_Up: emit pass_requested(-1); return;
  case Qt::Key_Down: emit pass_requested(1); return;
  case Qt::Key_F:
  case Qt::Key_Space:
    user_zoomed_ = false;
    fit();
    return;
  case Qt::Key_W:
  case Qt::Key_Plus:
  case Qt::Key_Equal: zoom(1.25); return;
  case Qt::Key_S:
  case Qt::Key_Minus: zoom(0.8); return;
  case Qt::Key_Escape:
    select_node(-1);
    emit node_clicked(-1);
    return;
  default: QGraphicsView::keyPressEvent(event);
  }
}

void RewriteGraphView::mousePressEvent(QMouseEvent *event) {
  if (const QRectF map = minimap_rect();
      event->button() == Qt::LeftButton && map.contains(event->position())) {
    // Jump there: the minimap maps the graph's bounds onto its rectangle.
    const QRectF bounds = layout_->bounds;
    const QPointF at = event->position() - map.topLeft();
    user_zoomed_ = true;
    centerOn(bounds.topLeft() + QPointF(at.x() / map.width() * bounds.width(),
                                        at.y() / map.height() * bounds.height()));
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton) {
    int index = -1;
    for (QGraphicsItem *item = itemAt(event->pos()); item; item = item->parentItem())
      if (auto *node = dynamic_cast<RewriteNodeItem *>(item)) {
        index = node->index();
        break;
      }
    select_node(index);
    emit node_clicked(index);
  }
  QGraphicsView::mousePressEvent(event);
}

void RewriteGraphView::resizeEvent(QResizeEvent *event) {
  QGraphicsView::resizeEvent(event);
  if (!user_zoomed_) auto_fit();
}

void RewriteGraphView::drawForeground(QPainter *painter, const QRectF &) {
  painter->save();
  painter->resetTransform();
  painter->setRenderHint(QPainter::Antialiasing);
  const QRect area = viewport()->rect();
  QFont font = rewrite_node_fonts().detail;
  font.setPointSizeF(9);
  painter->setFont(font);
  if (!caption_.isEmpty()) {
    painter->setPen(theme::muted_text());
    painter->drawText(area.adjusted(12, 8, -12, -8), Qt::AlignLeft | Qt::AlignTop, caption_);
  }
  if (!busy_note_.isEmpty()) {
    painter->setPen(QColor(0xf0, 0xd0, 0x60));
    painter->drawText(area.adjusted(12, 8, -12, -8), Qt::AlignRight | Qt::AlignTop, busy_note_);
  }
  if (!message_.isEmpty()) {
    font.setPointSizeF(10.5);
    painter->setFont(font);
    painter->setPen(theme::text());
    painter->drawText(area.adjusted(40, 40, -40, -40), Qt::AlignCenter | Qt::TextWordWrap,
                      message_);
  }
  if (graph_ && !graph_->nodes.empty()) {
    draw_legend(*painter);
    draw_minimap(*painter);
  }
  painter->restore();
}

QRectF RewriteGraphView::minimap_rect() const {
  if (!shows_part()) return {};
  const QRectF bounds = layout_->bounds;
  // At most 170 x 220 pixels, the graph's aspect kept, under the busy note at the top right.
  const double scale =
      std::min(170 / std::max(bounds.width(), 1.0), 220 / std::max(bounds.height(), 1.0));
  const QSizeF size(bounds.width() * scale, bounds.height() * scale);
  return QRectF(QPointF(viewport()->width() - size.width() - 14, 30), size);
}

void RewriteGraphView::draw_minimap(QPainter &painter) const {
  const QRectF map = minimap_rect();
  if (map.isEmpty()) return;
  const QRectF bounds = layout_->bounds;
  auto to_map = [&](const QRectF &r) {
    const double sx = map.width() / bounds.width(), sy = map.height() / bounds.height();
    return QRectF(map.left() + (r.left() - bounds.left()) * sx,
                  map.top() + (r.top() - bounds.top()) * sy, r.width() * sx, r.height() * sy);
  };
  QColor back = theme::panel();
  back.setAlpha(230);
  painter.setPen(QPen(QColor(0x3a, 0x3d, 0x48), 1));
  painter.setBrush(back);
  painter.drawRoundedRect(map.adjusted(-5, -5, 5, 5), 4, 4);
  painter.setPen(Qt::NoPen);
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const RewriteNodeMark mark = graph_->nodes[i].mark;
    const bool changed = mark == RewriteNodeMark::Created || mark == RewriteNodeMark::Replacement;
    painter.setBrush(changed ? rewrite_change_color() : op_style(graph_->nodes[i].uop.op()).fill);
    const QRectF r = to_map(layout_->nodes[i]);
    painter.drawRect(QRectF(r.topLeft(), r.size().expandedTo(QSizeF(2, 2))));
  }
  painter.setPen(QPen(theme::accent(), 1.2));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(to_map(mapToScene(viewport()->rect()).boundingRect()).intersected(map));
}

std::vector<RewriteGraphView::LegendEntry> RewriteGraphView::legend_entries() const {
  // Op groups in the order they first appear, then the marks this record uses.
  std::vector<LegendEntry> entries;
  std::vector<QString> groups;
  bool changed = false, rebuilt = false;
  for (const auto &node : graph_->nodes) {
    const OpStyle style = op_style(node.uop.op());
    if (std::find(groups.begin(), groups.end(), style.group) == groups.end()) {
      groups.push_back(style.group);
      entries.push_back({style.group, style.fill, QPen(QColor(0x4a, 0x4b, 0x57), 1)});
    }
    changed |= node.mark == RewriteNodeMark::Replacement || node.mark == RewriteNodeMark::Created;
    rebuilt |= node.mark == RewriteNodeMark::Rebuilt;
  }
  if (changed)
    entries.push_back(
        {QObject::tr("created by this step"), Qt::NoBrush, QPen(rewrite_change_color(), 2.2)});
  if (rebuilt)
    entries.push_back({QObject::tr("rebuilt (source replaced)"), Qt::NoBrush,
                       QPen(rewrite_change_color(), 1.4, Qt::DashLine)});
  if (selected_ >= 0) {
    entries.push_back(
        {QObject::tr("sources of selected"), Qt::NoBrush, QPen(rewrite_source_color(), 2.2)});
    entries.push_back(
        {QObject::tr("consumers of selected"), Qt::NoBrush, QPen(rewrite_consumer_color(), 2.2)});
  }
  return entries;
}

namespace {

QFont legend_font() {
  QFont font = rewrite_node_fonts().detail;
  font.setPointSizeF(8);
  return font;
}

double legend_row(const QFontMetricsF &metrics) { return metrics.height() + 3; }

// The width of one legend column.
template <class Entries>
double legend_column_width(const Entries &entries, const QFontMetricsF &metrics) {
  double width = 0;
  for (const auto &e : entries) width = std::max(width, metrics.horizontalAdvance(e.text));
  return width + 44;
}

}  // namespace

QRectF RewriteGraphView::legend_area() const {
  if (!graph_ || graph_->nodes.empty()) return {};
  const auto entries = legend_entries();
  const QFontMetricsF metrics(legend_font());
  const double column = legend_column_width(entries, metrics);
  // One column, or for a long legend (a lowered kernel shows up to ~15 op groups) also two: the
  // shape and corner that hide the fewest nodes.
  QRectF best;
  std::size_t fewest = std::numeric_limits<std::size_t>::max();
  for (std::size_t columns : {std::size_t{1}, std::size_t{2}}) {
    if (columns == 2 && entries.size() <= 8) break;
    const std::size_t rows = (entries.size() + columns - 1) / columns;
    std::size_t covered = 0;
    const QRectF r = legend_rect(QSizeF(static_cast<double>(columns) * column,
                                        static_cast<double>(rows) * legend_row(metrics) + 12),
                                 &covered);
    if (covered < fewest) fewest = covered, best = r;
  }
  return best;
}

void RewriteGraphView::draw_legend(QPainter &painter) const {
  painter.setFont(legend_font());
  const QFontMetricsF metrics(legend_font());
  const double row = legend_row(metrics);
  const QRectF panel = legend_area();
  painter.setPen(QPen(QColor(0x3a, 0x3d, 0x48), 1));
  QColor back = theme::panel();
  back.setAlpha(225);
  painter.setBrush(back);
  painter.drawRoundedRect(panel, 4, 4);
  const auto entries = legend_entries();
  const double column_width = legend_column_width(entries, metrics);
  const auto columns =
      static_cast<std::size_t>(std::max(1.0, std::round(panel.width() / column_width)));
  const std::size_t rows = (entries.size() + columns - 1) / columns;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto &e = entries[i];
    const double x = panel.left() + static_cast<double>(i / rows) * column_width;
    const double y = panel.top() + 6 + static_cast<double>(i % rows) * row;
    painter.setPen(e.pen);
    painter.setBrush(e.fill);
    painter.drawRoundedRect(QRectF(x + 8, y + 2, 18, row - 6), 2, 2);
    painter.setPen(theme::text());
    painter.drawText(QPointF(x + 34, y + metrics.ascent() + 1), e.text);
  }
}

QRectF RewriteGraphView::legend_rect(const QSizeF &size, std::size_t *nodes_covered) const {
  // Bottom left as VIZ, unless the graph is drawn there (a tall graph reaches the bottom): then
  // the corner that hides the fewest nodes, bottom right or top left under the caption.
  const QRect area = viewport()->rect();
  const QRectF corners[] = {
      QRectF(QPointF(10, area.height() - 10 - size.height()), size),
      QRectF(QPointF(area.width() - 10 - size.width(), area.height() - 10 - size.height()), size),
      QRectF(QPointF(10, 10 + kCaptionRoom), size)};
  const QRectF map = minimap_rect();
  QRectF best = corners[0];
  std::size_t fewest = std::numeric_limits<std::size_t>::max();
  for (const QRectF &corner : corners) {
    if (!map.isEmpty() && corner.intersects(map.adjusted(-5, -5, 5, 5))) continue;
    const QRectF in_scene = mapToScene(corner.toAlignedRect()).boundingRect();
    const auto covered = static_cast<std::size_t>(
        std::count_if(layout_->nodes.begin(), layout_->nodes.end(),
                      [&](const QRectF &node) { return node.intersects(in_scene); }));
    if (covered < fewest) fewest = covered, best = corner;
    if (covered == 0) break;
  }
  if (nodes_covered) *nodes_covered = fewest;
  return best;
}

}  // namespace wavescope::gui
