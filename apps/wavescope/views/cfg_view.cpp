#include "views/cfg_view.hpp"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

#include "app/documents.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"
#include "layout/graph_layout.hpp"

namespace wavescope::gui {

using compiler::isa::Instruction;

// One basic block: a header line and its instructions, one per line.
class CfgBlockItem : public QGraphicsItem {
public:
  static constexpr double kPad = 6;

  CfgBlockItem(const compiler::isa::BasicBlock &block, const std::vector<Instruction> &insts,
               Selection &selection)
      : block_(block), selection_(selection), font_(theme::monospace_font(9)) {
    const QFontMetricsF metrics(font_);
    line_height_ = metrics.height();
    header_ = QStringLiteral("bb%1  %2").arg(block.id).arg(block.start, 0, 16);
    double width = metrics.horizontalAdvance(header_);
    for (std::size_t i = block.first; i < block.first + block.count; ++i) {
      lines_.push_back(&insts[i]);
      width = std::max(width, metrics.horizontalAdvance(QString::fromStdString(insts[i].text)));
    }
    size_ = QSizeF(width + 2 * kPad, (lines_.size() + 1) * line_height_ + 2 * kPad);
    setAcceptedMouseButtons(Qt::LeftButton);
  }

  QSizeF size() const { return size_; }
  QRectF boundingRect() const override { return QRectF(QPointF(0, 0), size_); }

  bool contains_pc(quint64 pc) const { return pc >= block_.start && pc < block_.end; }
  void set_selected_pc(std::optional<quint64> pc) {
    selected_pc_ = pc;
    update();
  }

  void paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) override {
    const QRectF r = boundingRect();
    p->setRenderHint(QPainter::Antialiasing);
    p->setPen(QPen(block_.is_exit ? theme::category_color(compiler::isa::InstCategory::Endpgm)
                                  : QColor(0x4a, 0x50, 0x5c),
                   1.2));
    p->setBrush(theme::panel());
    p->drawRoundedRect(r, 4, 4);
    p->setFont(font_);
    p->setPen(theme::muted_text());
    p->drawText(QPointF(kPad, kPad + line_height_ * 0.8), header_);
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const double top = kPad + (i + 1) * line_height_;
      if (selected_pc_ && *selected_pc_ == lines_[i]->address)
        p->fillRect(QRectF(2, top, r.width() - 4, line_height_), theme::selection());
      p->setPen(theme::category_color(lines_[i]->category));
      p->drawText(QPointF(kPad, top + line_height_ * 0.8), QString::fromStdString(lines_[i]->text));
    }
  }

protected:
  void mousePressEvent(QGraphicsSceneMouseEvent *event) override {
    const int line = static_cast<int>((event->pos().y() - kPad) / line_height_) - 1;
    if (line >= 0 && line < static_cast<int>(lines_.size()))
      selection_.select_pc(lines_[static_cast<std::size_t>(line)]->address);
    event->accept();
  }

private:
  compiler::isa::BasicBlock block_;
  Selection &selection_;
  QFont font_;
  double line_height_ = 12;
  QString header_;
  std::vector<const Instruction *> lines_;
  QSizeF size_;
  std::optional<quint64> selected_pc_;
};

CfgView::CfgView(Selection &selection, QWidget *parent)
    : QGraphicsView(parent), selection_(selection) {
  setScene(new QGraphicsScene(this));
  setBackgroundBrush(theme::background());
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  connect(&selection_, &Selection::pc_selected, this, &CfgView::on_pc_selected);
}

void CfgView::show_kernel(const KernelCode &kernel) {
  scene()->clear();
  blocks_.clear();
  std::vector<QSizeF> sizes;
  for (const auto &block : kernel.cfg.blocks) {
    auto *item = new CfgBlockItem(block, kernel.instructions, selection_);
    sizes.push_back(item->size());
    blocks_.push_back(item);
  }
  std::vector<LayoutEdgeRequest> requests;
  for (const auto &edge : kernel.cfg.edges)
    requests.push_back({edge.from, edge.to, !edge.is_back_edge});
  const GraphLayout layout = layout_graph(sizes, requests);
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    blocks_[i]->setPos(layout.nodes[i].topLeft());
    scene()->addItem(blocks_[i]);
  }
  for (std::size_t e = 0; e < kernel.cfg.edges.size(); ++e) {
    const auto &points = layout.edges[e];
    if (points.empty()) continue;
    QPainterPath path(points.front());
    for (std::size_t k = 1; k + 2 < points.size(); k += 3)
      path.cubicTo(points[k], points[k + 1], points[k + 2]);
    const QPointF tip = layout.arrow_tips[e];
    path.lineTo(tip);
    const QColor color = theme::edge_color(kernel.cfg.edges[e].kind);
    auto *edge = scene()->addPath(path, QPen(color, 1.6));
    edge->setZValue(-1);
    // Arrow head along the last segment.
    const QPointF from = points.back() == tip && points.size() > 1 ? points[points.size() - 2]
                                                                   : points.back();
    const double angle = std::atan2(tip.y() - from.y(), tip.x() - from.x());
    QPolygonF head;
    head << tip << tip - QPointF(std::cos(angle - 0.4) * 9, std::sin(angle - 0.4) * 9)
         << tip - QPointF(std::cos(angle + 0.4) * 9, std::sin(angle + 0.4) * 9);
    scene()->addPolygon(head, QPen(color), QBrush(color));
  }
  scene()->setSceneRect(layout.bounds.adjusted(-20, -20, 20, 20));
  fit();
}

void CfgView::fit() {
  if (!scene()->items().isEmpty()) {
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // Never magnify small graphs beyond 1:1; text stays crisp and proportions honest.
    if (transform().m11() > 1.0) resetTransform();
  }
}

void CfgView::wheelEvent(QWheelEvent *event) {
  if (event->modifiers() & Qt::ControlModifier) {
    const double factor = std::pow(1.0015, event->angleDelta().y());
    scale(factor, factor);
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

void CfgView::keyPressEvent(QKeyEvent *event) {
  switch (event->key()) {
  case Qt::Key_F: fit(); return;
  case Qt::Key_W:
  case Qt::Key_Plus: scale(1.25, 1.25); return;
  case Qt::Key_S:
  case Qt::Key_Minus: scale(0.8, 0.8); return;
  default: QGraphicsView::keyPressEvent(event);
  }
}

void CfgView::on_pc_selected(quint64 pc) {
  for (auto *block : blocks_) {
    const bool here = block->contains_pc(pc);
    block->set_selected_pc(here ? std::optional<quint64>(pc) : std::nullopt);
    if (here) ensureVisible(block, 40, 40);
  }
}

}  // namespace wavescope::gui
