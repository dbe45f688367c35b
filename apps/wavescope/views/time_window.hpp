#pragma once
// The visible time window of a profile canvas (the timeline and the memory graph): [t0, t1) in
// picoseconds drawn right of a gutter, the mapping between time and x, zoom about an anchor, pan
// by pixels, the keys and wheel both canvases share (W/S zoom, A/D pan, Ctrl+wheel zoom,
// Shift+wheel pan), and the time axis: grid lines every nice step and the labelled axis strip
// with adaptive units, the window's width in the gutter.

#include <QPointF>

#include <optional>

class QKeyEvent;
class QPainter;
class QWheelEvent;
class QWidget;

namespace wavescope::gui {

class TimeWindow {
public:
  // The window of `canvas`, drawn from x = `gutter` to its right edge; never narrower than
  // `min_span` picoseconds.
  TimeWindow(const QWidget &canvas, int gutter, double min_span = 10);

  // Shows [t0, t1); false (unchanged) unless t1 > t0. Narrower windows widen about their centre.
  bool set(double t0, double t1);
  double start() const { return t0_; }
  double end() const { return t1_; }
  double span() const { return t1_ - t0_; }

  double ps_per_pixel() const;
  double x_of(double t) const;
  double t_of(double x) const;
  // Zooms by `factor` (> 1: in) keeping the time under `anchor_x` in place.
  void zoom(double factor, double anchor_x);
  void pan_pixels(double dx);
  // Whether any of [s, e] is in the window.
  bool overlaps(double s, double e) const { return e >= t0_ && s <= t1_; }
  // Moves the window, keeping its zoom, so that `t` is at `fraction` of its width.
  void move_to(double t, double fraction = 0.5);

  // W/S zoom about the hovered x (else the middle), A/D pan a fifth of the window. True when the
  // key was one of them (the window changed).
  bool key(const QKeyEvent &event, std::optional<QPointF> hover);
  // Ctrl+wheel zooms, Shift+wheel pans; false for a plain wheel (the canvas scrolls).
  bool wheel(const QWheelEvent &event);

  // The distance between ticks: a nice step about 110 pixels wide.
  double tick_step() const;
  // Vertical grid lines at the ticks from `top` down to `bottom`.
  void paint_grid(QPainter &p, int top, int bottom) const;
  // The axis strip [0, height) with tick marks and time labels (none overlapping, the last kept
  // whole at the edge) and "window <width>" in the gutter.
  void paint_axis(QPainter &p, int height) const;

private:
  const QWidget &canvas_;
  int gutter_;
  double min_span_;
  double t0_ = 0, t1_ = 1;
};

}  // namespace wavescope::gui
