#include "views/cfg_view.hpp"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

#include "app/document.hpp"
#include "app/selection.hpp"
#include "app/theme.hpp"
#include "app/workspace.hpp"
#include "layout/graph_layout.hpp"
#include "views/isa_text_painter.hpp"

namespace wavescope::gui {

using compiler::isa::Instruction;

// One basic block: a header line and its instructions, one per line.
class CfgBlockItem : public QGraphicsItem {
public:
  static constexpr double kPad = 6;
  static constexpr double kHeatStrip = 5;  // per-instruction heat strip at the left edge

  CfgBlockItem(const compiler::isa::BasicBlock &block, const std::vector<Instruction> &insts,
               Selection &selection, const std::map<std::uint64_t, double> *heat, double max_heat)
      : block_(block), selection_(selection), font_(theme::monospace_font(9)), max_heat_(max_heat) {
    const QFontMetricsF metrics(font_);
    line_height_ = metrics.height();
    header_ = QStringLiteral("bb%1  %2").arg(block.id).arg(block.start, 0, 16);
    double width = metrics.horizontalAdvance(header_);
    for (std::size_t i = block.first; i < block.first + block.count; ++i) {
      lines_.push_back(&insts[i]);
      width = std::max(width, metrics.horizontalAdvance(QString::fromStdString(insts[i].text)));
      double share = -1;
      if (heat)
        if (auto it = heat->find(insts[i].address); it != heat->end()) share = it->second;
      line_heat_.push_back(share);
      if (share > 0) block_share_ += share;
    }
    if (heat) header_ += QStringLiteral("   %1%").arg(block_share_ * 100, 0, 'f', 1);
    width = std::max(width, metrics.horizontalAdvance(header_));
    size_ = QSizeF(width + 2 * kPad + kHeatStrip, (lines_.size() + 1) * line_height_ + 2 * kPad);
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
    // A block's share of the kernel's cycles tints it, so hot blocks stand out at any zoom.
    QColor fill = theme::panel();
    if (block_share_ > 0) {
      const QColor heat = theme::heat_color(block_share_);
      const double a = 0.06 + 0.16 * block_share_;
      fill = QColor::fromRgbF(static_cast<float>(fill.redF() * (1 - a) + heat.redF() * a),
                              static_cast<float>(fill.greenF() * (1 - a) + heat.greenF() * a),
                              static_cast<float>(fill.blueF() * (1 - a) + heat.blueF() * a));
    }
    p->setBrush(fill);
    p->drawRoundedRect(r, 4, 4);
    p->setFont(font_);
    p->setPen(theme::muted_text());
    p->drawText(QPointF(kPad + kHeatStrip, kPad + line_height_ * 0.8), header_);
    const QString highlight = selection_.highlight();
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const double top = kPad + (i + 1) * line_height_;
      if (selected_pc_ && *selected_pc_ == lines_[i]->address)
        p->fillRect(QRectF(2, top, r.width() - 4, line_height_), theme::selection());
      if (line_heat_[i] >= 0 && max_heat_ > 0)
        p->fillRect(QRectF(3, top + 1, kHeatStrip - 1, line_height_ - 2),
                    theme::heat_color(line_heat_[i] / max_heat_));
      paint_instruction(*p, QRectF(kPad + kHeatStrip, top, r.width(), line_height_),
                        QString::fromStdString(lines_[i]->text), lines_[i]->category,
                        {QString(), highlight});
    }
  }

protected:
  void mousePressEvent(QGraphicsSceneMouseEvent *event) override {
    const int line = static_cast<int>((event->pos().y() - kPad) / line_height_) - 1;
    if (line >= 0 && line < static_cast<int>(lines_.size())) {
      const auto &inst = *lines_[static_cast<std::size_t>(line)];
      selection_.select_pc(inst.address);
      const QString token =
          token_at(QString::fromStdString(inst.text), font_, event->pos().x() - kPad - kHeatStrip);
      if (!token.isEmpty()) selection_.toggle_highlight(token);
    }
    event->accept();
  }

private:
  compiler::isa::BasicBlock block_;
  Selection &selection_;
  QFont font_;
  double line_height_ = 12;
  QString header_;
  std::vector<const Instruction *> lines_;
  std::vector<double> line_heat_;  // cost share per line, -1 where unknown
  double max_heat_ = 0;
  double block_share_ = 0;
  QSizeF size_;
  std::optional<quint64> selected_pc_;
};

CfgView::CfgView(Workspace &workspace, Selection &selection, QWidget *parent)
    : QGraphicsView(parent), workspace_(workspace), selection_(selection) {
  setScene(new QGraphicsScene(this));
  setBackgroundBrush(theme::background());
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  connect(&selection_, &Selection::pc_selected, this, &CfgView::on_pc_selected);
  connect(&selection_, &Selection::focus_changed, this, &CfgView::on_focus);
  connect(&selection_, &Selection::highlight_changed, this, [this] { scene()->update(); });
}

void CfgView::on_focus(const Focus &focus) {
  const Document *document = workspace_.document(focus.document);
  const int kernel = focus.kernel < 0 ? 0 : focus.kernel;
  const KernelCode *code = document ? document->kernel(kernel) : nullptr;
  const auto *heat = document ? document->pc_heat(kernel) : nullptr;
  // Moving between the SEs and waves of one kernel keeps its graph (and Graphviz's layout).
  if (!code || code != shown_ || heat != shown_heat_) show_kernel(code, heat);
  // A view that handled the focus before this one may already have selected an instruction.
  if (const auto pc = selection_.pc()) on_pc_selected(*pc);
}

void CfgView::show_kernel(const KernelCode *code, const std::map<std::uint64_t, double> *heat) {
  shown_ = code;
  shown_heat_ = heat;
  scene()->clear();
  blocks_.clear();
  if (!code) return;
  const KernelCode &kernel = *code;
  double max_heat = 0;
  if (heat)
    for (const auto &[pc, share] : *heat) max_heat = std::max(max_heat, share);
  std::vector<QSizeF> sizes;
  for (const auto &block : kernel.cfg.blocks) {
    auto *item = new CfgBlockItem(block, kernel.instructions, selection_, heat, max_heat);
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
    const QPointF from =
        points.back() == tip && points.size() > 1 ? points[points.size() - 2] : points.back();
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
