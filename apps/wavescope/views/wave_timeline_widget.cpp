#include "views/wave_timeline_widget.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "app/theme.hpp"
#include "views/timeline_axis.hpp"

namespace wavescope::gui {

namespace {
constexpr double kMinSpan = 16;  // cycles
constexpr int kDragThreshold = 4;
}  // namespace

WaveTimelineWidget::WaveTimelineWidget(QWidget *parent) : QAbstractScrollArea(parent) {
  qRegisterMetaType<TimelineEventRef>();
  setFocusPolicy(Qt::StrongFocus);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setFrameShape(QFrame::NoFrame);
  viewport()->setMouseTracking(true);
  viewport()->setAutoFillBackground(false);
  verticalScrollBar()->setSingleStep(WaveTimelineModel::kRowHeight);
  connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(),
          [this] { viewport()->update(); });
}

void WaveTimelineWidget::set_model(const WaveTimelineModel *model) {
  model_ = model;
  painter_.reset();
  if (model_) painter_.emplace(*model_);
  selected_ = hovered_ = {};
  pc_events_.clear();
  if (model_ && pc_) pc_events_ = model_->events_with_pc(*pc_);
  focused_wave_ = -1;
  measure_.reset();
  update_scrollbar();
  verticalScrollBar()->setValue(0);
  fit();
}

TimelineFrame WaveTimelineWidget::frame() const {
  TimelineFrame f;
  f.size = viewport()->size();
  f.t0 = t0_;
  f.t1 = t1_;
  f.scroll_y = verticalScrollBar()->value();
  f.selected = selected_;
  f.hovered = hovered_;
  f.measure = measure_;
  f.pc = pc_;
  f.pc_events = &pc_events_;
  f.focused_wave = focused_wave_;
  return f;
}

void WaveTimelineWidget::set_visible_range(double t0, double t1) {
  double span = std::max(kMinSpan, t1 - t0);
  if (model_) {
    const auto [lo, hi] = model_->full_range();
    const double full = static_cast<double>(hi - lo);
    span = std::min(span, std::max(kMinSpan, full * 1.5));
    // Keep at least a quarter of the window over the trace.
    const double min_t0 = static_cast<double>(lo) - span * 0.75;
    const double max_t0 = static_cast<double>(hi) - span * 0.25;
    t0 = std::clamp(t0, min_t0, std::max(min_t0, max_t0));
  }
  t0_ = t0;
  t1_ = t0 + span;
  viewport()->update();
  Q_EMIT range_changed(t0_, t1_);
}

void WaveTimelineWidget::zoom(double factor, std::optional<double> anchor_x) {
  if (!(factor > 0)) return;
  const TimelineFrame f = frame();
  const QRectF plot = WaveTimelinePainter::plot_rect(f.size);
  const double x = std::clamp(anchor_x.value_or(plot.center().x()), plot.left(), plot.right());
  const double anchor = WaveTimelinePainter::cycle_at(f, x);
  const double span = std::max(kMinSpan, (t1_ - t0_) / factor);
  const double share = (x - plot.left()) / plot.width();
  set_visible_range(anchor - share * span, anchor - share * span + span);
}

void WaveTimelineWidget::pan(double fraction) {
  const double shift = (t1_ - t0_) * fraction;
  set_visible_range(t0_ + shift, t1_ + shift);
}

void WaveTimelineWidget::fit() {
  if (!model_ || !model_->timeline()) {
    set_visible_range(0, 1000);
    return;
  }
  const auto [lo, hi] = model_->fit_range();
  const double margin = std::max(4.0, static_cast<double>(hi - lo) * 0.02);
  set_visible_range(static_cast<double>(lo) - margin, static_cast<double>(hi) + margin);
}

void WaveTimelineWidget::center_on(double cycle) {
  const double span = t1_ - t0_;
  set_visible_range(cycle - span / 2, cycle + span / 2);
}

void WaveTimelineWidget::ensure_visible(TimelineEventRef ref) {
  if (!model_ || !ref.valid()) return;
  const double start = static_cast<double>(model_->start_of(ref));
  const double end = static_cast<double>(model_->end_of(ref));
  if (end < t0_ || start > t1_) center_on((start + end) / 2);  // same zoom, as VIZ
  const int top = model_->track_top(ref.track);
  const int bottom = top + model_->track(ref.track).height;
  const int visible = viewport()->height() - WaveTimelinePainter::kAxisHeight;
  auto *bar = verticalScrollBar();
  if (top < bar->value())
    bar->setValue(top);
  else if (bottom > bar->value() + visible)
    bar->setValue(bottom - visible);
}

void WaveTimelineWidget::select(TimelineEventRef ref) {
  if (model_ && ref.valid() && !model_->event(ref) && !model_->bar(ref)) ref = {};
  if (ref == selected_) return;
  selected_ = ref;
  ensure_visible(ref);
  viewport()->update();
  Q_EMIT selection_changed(selected_);
}

bool WaveTimelineWidget::walk(int step) {
  if (!model_) return false;
  if (!selected_.valid()) {
    // Start with the first wave-row event in view.
    for (int t = 0; t < static_cast<int>(model_->tracks().size()); ++t)
      if (model_->track(t).kind == TrackKind::WaveSlot) {
        const auto ref = model_->event_at(t, 0, t0_, t1_ - t0_);
        if (ref.valid()) {
          select(ref);
          return true;
        }
      }
    return false;
  }
  const auto next = model_->neighbour(selected_, step);
  if (!next.valid()) return false;
  select(next);
  return true;
}

void WaveTimelineWidget::set_pc(std::optional<std::uint64_t> pc) {
  if (pc == pc_) return;
  pc_ = pc;
  pc_events_ = model_ && pc_ ? model_->events_with_pc(*pc_) : std::vector<TimelineEventRef>{};
  viewport()->update();
}

void WaveTimelineWidget::set_focused_wave(int wave) {
  focused_wave_ = wave;
  viewport()->update();
}

void WaveTimelineWidget::set_measure(std::optional<std::pair<double, double>> range) {
  measure_ = range;
  viewport()->update();
  Q_EMIT measure_changed();
}

TimelineEventRef WaveTimelineWidget::event_at(QPoint point) const {
  if (!model_ || !painter_) return {};
  const TimelineFrame f = frame();
  const QRectF plot = WaveTimelinePainter::plot_rect(f.size);
  if (!plot.contains(point)) return {};
  const int track = model_->track_at_y(point.y() - WaveTimelinePainter::kAxisHeight + f.scroll_y);
  if (track < 0) return {};
  const auto &t = model_->track(track);
  const double cycle = WaveTimelinePainter::cycle_at(f, point.x());
  const double slack = 3 * (t1_ - t0_) / plot.width();
  const double y_in = point.y() - painter_->track_y(f, track);
  if (t.kind == TrackKind::Occupancy)
    return model_->event_at(track, painter_->lane_at(track, y_in), cycle, slack);
  if (t.kind == TrackKind::ExecUnit || t.kind == TrackKind::WaveSlot)
    return model_->event_at(track, 0, cycle, slack);
  return {};
}

QPoint WaveTimelineWidget::point_of(TimelineEventRef ref) const {
  if (!painter_) return {};
  return painter_->bar_rect(frame(), ref).center().toPoint();
}

QRectF WaveTimelineWidget::painter_rect(TimelineEventRef ref) const {
  return painter_ ? painter_->bar_rect(frame(), ref) : QRectF();
}

void WaveTimelineWidget::update_scrollbar() {
  const int content = model_ ? model_->total_height() : 0;
  const int visible = std::max(0, viewport()->height() - WaveTimelinePainter::kAxisHeight);
  verticalScrollBar()->setRange(0, std::max(0, content - visible));
  verticalScrollBar()->setPageStep(visible);
}

void WaveTimelineWidget::paintEvent(QPaintEvent *) {
  QPainter p(viewport());
  if (!painter_ || !model_->timeline()) {
    p.fillRect(viewport()->rect(), theme::canvas());
    return;
  }
  stats_ = painter_->paint(p, frame());
}

void WaveTimelineWidget::resizeEvent(QResizeEvent *event) {
  QAbstractScrollArea::resizeEvent(event);
  update_scrollbar();  // the visible cycle range is kept
}

void WaveTimelineWidget::mousePressEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mousePressEvent(event);
  press_ = event->position().toPoint();
  press_t0_ = t0_;
  if (event->modifiers() & Qt::ShiftModifier) {
    drag_ = Drag::Measure;
    const double c = WaveTimelinePainter::cycle_at(frame(), press_.x());
    set_measure(std::make_pair(c, c));
  } else {
    drag_ = Drag::Pending;
  }
}

void WaveTimelineWidget::mouseMoveEvent(QMouseEvent *event) {
  const QPoint pos = event->position().toPoint();
  const TimelineFrame f = frame();
  const QRectF plot = WaveTimelinePainter::plot_rect(f.size);
  if (drag_ == Drag::Pending && (pos - press_).manhattanLength() >= kDragThreshold)
    drag_ = Drag::Pan;
  if (drag_ == Drag::Pan) {
    const double shift = (pos.x() - press_.x()) * (t1_ - t0_) / plot.width();
    const double span = t1_ - t0_;
    set_visible_range(press_t0_ - shift, press_t0_ - shift + span);
    setCursor(Qt::ClosedHandCursor);
    return;
  }
  if (drag_ == Drag::Measure) {
    measure_->second = WaveTimelinePainter::cycle_at(f, pos.x());
    viewport()->update();
    Q_EMIT measure_changed();
    return;
  }
  const TimelineEventRef hover = event_at(pos);
  if (!(hover == hovered_)) {
    hovered_ = hover;
    viewport()->update();
  }
}

void WaveTimelineWidget::mouseReleaseEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mouseReleaseEvent(event);
  unsetCursor();
  if (drag_ == Drag::Pending) select(event_at(event->position().toPoint()));
  if (drag_ == Drag::Measure && measure_ &&
      std::fabs(measure_->second - measure_->first) *
              WaveTimelinePainter::plot_rect(viewport()->size()).width() / (t1_ - t0_) <
          2)
    set_measure(std::nullopt);  // a shift-click, not a range
  drag_ = Drag::None;
}

void WaveTimelineWidget::wheelEvent(QWheelEvent *event) {
  const QPoint delta = event->angleDelta();
  if (event->modifiers() & Qt::ControlModifier) {
    zoom(std::pow(1.0015, delta.y()), event->position().x());
    event->accept();
    return;
  }
  if ((event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
    const int d = delta.x() != 0 ? delta.x() : delta.y();
    pan(-d / 1200.0);
    event->accept();
    return;
  }
  QAbstractScrollArea::wheelEvent(event);
}

void WaveTimelineWidget::keyPressEvent(QKeyEvent *event) {
  const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
  const std::optional<double> anchor =
      viewport()->rect().contains(cursor) ? std::optional<double>(cursor.x()) : std::nullopt;
  switch (event->key()) {
  case Qt::Key_W:
  case Qt::Key_Plus:
  case Qt::Key_Equal: zoom(1.25, anchor); return;
  case Qt::Key_S:
  case Qt::Key_Minus: zoom(0.8, anchor); return;
  case Qt::Key_A: pan(-0.15); return;
  case Qt::Key_D: pan(0.15); return;
  case Qt::Key_F:
  case Qt::Key_Space: fit(); return;
  case Qt::Key_Left: walk(-1); return;
  case Qt::Key_Right: walk(1); return;
  case Qt::Key_Escape:
    if (measure_)
      set_measure(std::nullopt);
    else
      select({});
    return;
  default: QAbstractScrollArea::keyPressEvent(event);
  }
}

QString WaveTimelineWidget::tooltip_for(TimelineEventRef ref) const {
  if (const auto *bar = model_->bar(ref)) {
    const auto &w = model_->timeline()->waves[bar->wave];
    return tr("<b>wave %1</b> · CU %2 SIMD %3 slot %4<br>%5 cycles%6")
        .arg(bar->wave)
        .arg(w.cu)
        .arg(w.simd)
        .arg(w.slot)
        .arg(w.end - w.start)
        .arg(bar->mapped ? tr(" · instructions traced") : QString());
  }
  const auto *e = model_->event(ref);
  if (!e) return {};
  QString text = QStringLiteral("<b>%1</b> · %2 cycles")
                     .arg(QString::fromUtf8(e->name.data(), static_cast<int>(e->name.size())))
                     .arg(e->end - e->start);
  if (e->has_pc)
    text += QStringLiteral("<br><tt>%1</tt>&nbsp;&nbsp;%2")
                .arg(e->pc, 0, 16)
                .arg(model_->instruction_text(e->pc).toHtmlEscaped());
  return text;
}

bool WaveTimelineWidget::viewportEvent(QEvent *event) {
  if (event->type() == QEvent::ToolTip && model_) {
    const auto *help = static_cast<QHelpEvent *>(event);
    const QString text = tooltip_for(event_at(help->pos()));
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, viewport());
    return true;
  }
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace wavescope::gui
