#include "views/time_window.hpp"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QKeyEvent>
#include <QPainter>
#include <QWheelEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>

#include "app/theme.hpp"
#include "models/profile_track_model.hpp"
#include "views/timeline_axis.hpp"

namespace wavescope::gui {

TimeWindow::TimeWindow(const QWidget &canvas, int gutter, double min_span)
    : canvas_(canvas), gutter_(gutter), min_span_(min_span) {}

bool TimeWindow::set(double t0, double t1) {
  if (!(t1 > t0)) return false;
  if (t1 - t0 < min_span_) {
    const double c = (t0 + t1) / 2;
    t0 = c - min_span_ / 2;
    t1 = c + min_span_ / 2;
  }
  t0_ = t0;
  t1_ = t1;
  return true;
}

double TimeWindow::ps_per_pixel() const {
  return (t1_ - t0_) / std::max(1, canvas_.width() - gutter_);
}
double TimeWindow::x_of(double t) const { return gutter_ + (t - t0_) / ps_per_pixel(); }
double TimeWindow::t_of(double x) const { return t0_ + (x - gutter_) * ps_per_pixel(); }

void TimeWindow::zoom(double factor, double anchor_x) {
  const double anchor = t_of(std::clamp(anchor_x, double(gutter_), double(canvas_.width())));
  set(anchor - (anchor - t0_) / factor, anchor + (t1_ - anchor) / factor);
}

void TimeWindow::pan_pixels(double dx) {
  const double dt = dx * ps_per_pixel();
  set(t0_ + dt, t1_ + dt);
}

void TimeWindow::move_to(double t, double fraction) {
  const double w = t1_ - t0_;
  set(t - w * fraction, t + w * (1 - fraction));
}

bool TimeWindow::key(const QKeyEvent &event, std::optional<QPointF> hover) {
  const double anchor = hover ? hover->x() : (gutter_ + canvas_.width()) / 2.0;
  const double page = (canvas_.width() - gutter_) * 0.2;
  switch (event.key()) {
  case Qt::Key_W: zoom(1.35, anchor); return true;
  case Qt::Key_S: zoom(1 / 1.35, anchor); return true;
  case Qt::Key_A: pan_pixels(-page); return true;
  case Qt::Key_D: pan_pixels(page); return true;
  default: return false;
  }
}

bool TimeWindow::wheel(const QWheelEvent &event) {
  const double steps = event.angleDelta().y() / 120.0;
  if (event.modifiers() & Qt::ControlModifier) {
    zoom(std::pow(1.25, steps), event.position().x());
    return true;
  }
  if (event.modifiers() & Qt::ShiftModifier) {
    pan_pixels(-steps * (canvas_.width() - gutter_) * 0.1);
    return true;
  }
  return false;
}

double TimeWindow::tick_step() const { return nice_step(ps_per_pixel() * 110); }

void TimeWindow::paint_grid(QPainter &p, int top, int bottom) const {
  const double step = tick_step();
  p.setPen(QPen(theme::grid(), 0));
  for (double t = std::ceil(t0_ / step) * step; t <= t1_; t += step)
    p.drawLine(QPointF(x_of(t), top), QPointF(x_of(t), bottom));
}

void TimeWindow::paint_axis(QPainter &p, int height) const {
  const int width = canvas_.width();
  p.fillRect(QRect(0, 0, width, height), theme::panel());
  p.setPen(theme::grid());
  p.drawLine(0, height - 1, width, height - 1);
  const double step = tick_step();
  p.setPen(theme::text());
  const QFontMetrics fm(p.font());
  double last_label_end = gutter_;
  for (double t = std::ceil(t0_ / step) * step; t <= t1_; t += step) {
    const double x = x_of(t);
    if (x < gutter_) continue;
    p.drawLine(QPointF(x, height - 8), QPointF(x, height - 1));
    const QString label = format_time(std::abs(t) < step / 2 ? 0 : t, step);
    // A label that would run off the right edge ends at it instead (it stays whole).
    const double lx = std::min(x + 3, width - fm.horizontalAdvance(label) - 4.0);
    if (lx > last_label_end) p.drawText(QPointF(lx, height - 10), label);
    last_label_end = lx + fm.horizontalAdvance(label) + 6;
  }
  p.setPen(theme::muted_text());
  p.drawText(QRect(8, 0, gutter_ - 12, height), Qt::AlignLeft | Qt::AlignVCenter,
             QCoreApplication::translate("TimeWindow", "window %1").arg(format_time(t1_ - t0_)));
}

}  // namespace wavescope::gui
