#pragma once
// Paints any visible window of a WaveTimelineModel (viz.md §2.8): the wall-time and cycle axes,
// the shader-clock line, exec-unit and wave-slot bars colored by category, the occupancy lanes,
// the selection with its dispatch -> exec link, the occurrences of the selected PC and a measured
// range. Only visible tracks and events are touched, and bars narrower than a pixel merge into
// one column per pixel (the rows' skip indexes jump over the rest), so a frame costs about
// O(width x visible rows) whatever the number of events. Used by the widget and by benchmarks
// (any QPainter, e.g. on a QImage).

#include <QRectF>
#include <QSize>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/wave_timeline_model.hpp"
#include "views/timeline_axis.hpp"

class QPainter;
class QPolygonF;

namespace wavescope::gui {

// What to draw: the window and the interaction state.
struct TimelineFrame {
  QSize size;
  double t0 = 0, t1 = 1;  // visible cycles [t0, t1)
  int scroll_y = 0;       // vertical offset of the tracks
  TimelineEventRef selected, hovered;
  std::optional<std::pair<double, double>> measure;          // cycles
  std::optional<std::uint64_t> pc;                           // the selected instruction
  const std::vector<TimelineEventRef> *pc_events = nullptr;  // its events, by track and time
  int focused_wave = -1;                                     // SeTimeline::waves index
};

// What a frame cost: the painted item count stays bounded by the aggregation.
struct TimelinePaintStats {
  std::size_t bars = 0;     // events drawn one by one
  std::size_t columns = 0;  // one-pixel columns standing for sub-pixel events
  std::size_t texts = 0;    // labels inside bars
  std::size_t tracks = 0;   // visible tracks
  std::size_t items() const { return bars + columns + texts; }
};

class WaveTimelinePainter {
public:
  static constexpr int kLabelWidth = 176;
  static constexpr int kAxisHeight = 46;
  static constexpr int kBarInset = 4;  // bar top within a 20 px row
  static constexpr int kBarHeight = 12;
  static constexpr int kStateLaneInset = 17;  // the state lane under a wave row's bars
  static constexpr int kStateLaneHeight = 3;

  explicit WaveTimelinePainter(const WaveTimelineModel &model) : model_(model) {}

  TimelinePaintStats paint(QPainter &painter, const TimelineFrame &frame) const;

  // Geometry shared with the widget's hit tests (widget coordinates).
  static QRectF plot_rect(QSize size);
  static double x_of(const TimelineFrame &frame, double cycle);
  static double cycle_at(const TimelineFrame &frame, double x);
  int track_y(const TimelineFrame &frame, int track) const;
  // The drawn rectangle of an event (may lie outside the widget); empty if the ref is invalid.
  QRectF bar_rect(const TimelineFrame &frame, TimelineEventRef ref) const;
  // The occupancy lane at a y inside an occupancy track, -1 if none.
  int lane_at(int track, double y_in_track) const;

private:
  // paint()'s phases, in drawing order; the context carries the frame's shared state.
  struct PaintContext;
  void find_visible_tracks(PaintContext &c) const;
  void paint_grid(PaintContext &c) const;
  void paint_tracks(PaintContext &c) const;
  void paint_row(PaintContext &c, int track, int row, const EndSkipIndex &skip, bool exec) const;
  void paint_states(PaintContext &c, int track, int row) const;
  void paint_occupancy(PaintContext &c, int track, const OccupancyGroup &group) const;
  void paint_clock(PaintContext &c, int track) const;
  QPolygonF clock_step_line(const PaintContext &c, double top, double height, double max_hz) const;
  void paint_bar_details(PaintContext &c) const;
  void paint_focused_wave(PaintContext &c) const;
  void paint_pc_events(PaintContext &c) const;
  void paint_selection(PaintContext &c) const;
  void paint_measure(PaintContext &c) const;

  // wave_timeline_labels.cpp: the label column and the axes, drawn over the tracks.
  void paint_labels(QPainter &p, const TimelineFrame &frame, int first_track, int last_track) const;
  void paint_axes(QPainter &p, const TimelineFrame &frame,
                  const std::vector<AxisTick> &cycle_ticks) const;

  const WaveTimelineModel &model_;
};

}  // namespace wavescope::gui
