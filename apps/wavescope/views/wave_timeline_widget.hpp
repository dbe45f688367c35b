#pragma once
// The interactive wave timeline: a WaveTimelinePainter in a scroll area (tracks scroll
// vertically, the time axis and labels stay put).
//
//   Ctrl+wheel, W / S       zoom in / out around the cursor (or the centre)
//   drag, A / D, Shift+wheel  pan
//   F or Space              fit the kernel's instruction range
//   Shift+drag              measure a range (cycles and wall time); Esc clears it
//   click                   select a bar (its dispatch/exec partner is linked); ← / → walk its row

#include <QAbstractScrollArea>

#include <optional>
#include <utility>

#include "views/wave_timeline_painter.hpp"

namespace wavescope::gui {

class WaveTimelineWidget : public QAbstractScrollArea {
  Q_OBJECT
public:
  explicit WaveTimelineWidget(QWidget *parent = nullptr);

  // Shows the model's current timeline (call again after it changes); fits the view.
  void set_model(const WaveTimelineModel *model);
  const WaveTimelineModel *model() const { return model_; }

  // The visible window in cycles.
  std::pair<double, double> visible_range() const { return {t0_, t1_}; }
  void set_visible_range(double t0, double t1);
  // factor > 1 zooms in, keeping the cycle under anchor_x (widget x; default: the centre) fixed.
  void zoom(double factor, std::optional<double> anchor_x = {});
  // Moves the window by a fraction of its span (positive: later).
  void pan(double fraction);
  // Shows the kernel's instruction range (viz.md: the clock row is not part of it).
  void fit();
  // Moves the window so that `cycle` is in its middle, keeping the scale.
  void center_on(double cycle);

  TimelineEventRef selected() const { return selected_; }
  // Selects an event (invalid clears), scrolling it into view when it is off screen.
  void select(TimelineEventRef ref);
  // Selects the event `step` positions along the selected event's row; false at either end.
  bool walk(int step);
  // Marks the occurrences of an instruction (no signal).
  void set_pc(std::optional<std::uint64_t> pc);
  // Outlines a wave (SeTimeline::waves index, -1 for none).
  void set_focused_wave(int wave);
  std::optional<std::pair<double, double>> measured() const { return measure_; }
  void set_measure(std::optional<std::pair<double, double>> range);

  // The event drawn at a point of the viewport, and a point inside an event's bar.
  TimelineEventRef event_at(QPoint point) const;
  QPoint point_of(TimelineEventRef ref) const;
  QRectF painter_rect(TimelineEventRef ref) const;
  TimelineFrame frame() const;
  const TimelinePaintStats &last_paint() const { return stats_; }

Q_SIGNALS:
  void selection_changed(wavescope::gui::TimelineEventRef ref);
  void range_changed(double t0, double t1);
  void measure_changed();

protected:
  void paintEvent(QPaintEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  void mouseMoveEvent(QMouseEvent *event) override;
  void mouseReleaseEvent(QMouseEvent *event) override;
  void wheelEvent(QWheelEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;
  bool viewportEvent(QEvent *event) override;

private:
  void update_scrollbar();
  void ensure_visible(TimelineEventRef ref);
  QString tooltip_for(TimelineEventRef ref) const;

  const WaveTimelineModel *model_ = nullptr;
  std::optional<WaveTimelinePainter> painter_;  // set with the model
  double t0_ = 0, t1_ = 1;
  TimelineEventRef selected_, hovered_;
  std::optional<std::uint64_t> pc_;
  std::vector<TimelineEventRef> pc_events_;
  int focused_wave_ = -1;
  std::optional<std::pair<double, double>> measure_;
  TimelinePaintStats stats_;
  enum class Drag { None, Pending, Pan, Measure } drag_ = Drag::None;
  QPoint press_;
  double press_t0_ = 0;
};

}  // namespace wavescope::gui

Q_DECLARE_METATYPE(wavescope::gui::TimelineEventRef)
