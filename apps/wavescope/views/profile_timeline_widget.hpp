#pragma once
// The profile timeline canvas (viz.md §2.6): a time axis with adaptive units, one track per
// device/queue/host lane in the profile's order, nested spans stacked by depth, markers, memory
// and counter series. Perfetto's keys: W/S zoom, A/D pan, Ctrl+wheel zoom, drag to pan, `.`/`,`
// next/previous span on the selected track, F fit the selection, drag on the axis to select a
// range (Esc clears it). Only visible spans are drawn, and sub-pixel spans merge (span_lod.hpp).

#include <QWidget>

#include <optional>
#include <vector>

#include "models/profile_track_model.hpp"
#include "views/time_window.hpp"

namespace wavescope::gui {

class ProfileTimelineWidget : public QWidget {
  Q_OBJECT
public:
  explicit ProfileTimelineWidget(ProfileTrackModel &model, QWidget *parent = nullptr);

  // Relayouts after the model changed and fits the whole profile.
  void reset();
  void fit_all();
  // Shows [t0, t1) (picoseconds).
  void set_window(double t0, double t1);
  double window_start() const { return window_.start(); }
  double window_end() const { return window_.end(); }

  struct SpanRef {
    int track = -1;
    int span = -1;
    bool operator==(const SpanRef &) const = default;
  };
  std::optional<SpanRef> selected() const { return selected_; }
  void select_span(SpanRef ref, bool follow = true);
  void clear_selection();
  // Marks a moment (a kernel launch without a span) with a labelled line, scrolling it into view;
  // selecting a span or clearing the selection removes it.
  void mark_time(double t, const QString &label);
  std::optional<double> marked_time() const {
    return mark_ ? std::optional<double>(mark_->time) : std::nullopt;
  }
  std::optional<std::pair<double, double>> range() const { return range_; }
  void set_range(double t0, double t1);
  // Scrolls the track into view and makes it the current track.
  void scroll_to_track(int track);
  // Next/previous span (by start) on the selected track; the view follows, keeping its zoom.
  void step_span(int direction);
  // Zooms to the selected span, or the range, else the whole profile.
  void fit_selection();

  // Spans drawn (one by one), merged runs, and spans the frame covered (drawn alone or within a
  // merged run) in the last frame.
  std::size_t last_drawn_spans() const { return drawn_spans_; }
  std::size_t last_merged_runs() const { return merged_runs_; }
  std::size_t last_covered_spans() const { return covered_spans_; }
  // Level of detail on (the default): sub-pixel spans merge. Off, every visible span is drawn on
  // its own (the benchmark's baseline).
  void set_level_of_detail(bool on) {
    lod_ = on;
    update();
  }
  // The y of a track's first row (widget coordinates, before scrolling), -1 when absent.
  int track_y(int track) const;

  static constexpr int kAxisHeight = 34;
  static constexpr int kGutter = 190;
  static constexpr int kRowHeight = 20;
  static constexpr int kSeriesHeight = 54;
  // The narrowest bar drawn; shorter spans merge into runs this wide.
  static constexpr double kMinBarPixels = 2;

Q_SIGNALS:
  void span_selected(int track, int span);
  void selection_cleared();
  void range_changed(double t0, double t1);
  void range_cleared();
  void find_track_requested();

protected:
  void paintEvent(QPaintEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void wheelEvent(QWheelEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  void mouseMoveEvent(QMouseEvent *event) override;
  void mouseReleaseEvent(QMouseEvent *event) override;
  void mouseDoubleClickEvent(QMouseEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;
  void leaveEvent(QEvent *event) override;

private:
  struct Row {
    int track = 0;
    int y = 0;       // content y of the track's top (below the axis)
    int height = 0;  // header included
  };
  static constexpr int kHeaderHeight = 18;

  void relayout();
  void clamp_scroll();
  double x_of(double t) const { return window_.x_of(t); }
  double t_of(double x) const { return window_.t_of(x); }
  double ps_per_pixel() const { return window_.ps_per_pixel(); }
  std::optional<SpanRef> hit(QPointF pos) const;
  void follow(const trace::profile::Span &span);

  void paint_axis(QPainter &p);
  void paint_row(QPainter &p, const Row &row, int top);
  void paint_spans(QPainter &p, const trace::profile::Track &track, int track_index, int top);
  void paint_series(QPainter &p, const std::vector<trace::profile::CounterSample> &samples,
                    double peak, QColor color, int top, int height);
  void paint_markers(QPainter &p);
  void paint_range(QPainter &p);
  void paint_mark(QPainter &p);

  ProfileTrackModel &model_;
  std::vector<Row> rows_;
  int content_height_ = 0;
  int scroll_y_ = 0;
  TimeWindow window_{*this, kGutter};
  std::optional<SpanRef> selected_;
  int current_track_ = -1;
  std::optional<std::pair<double, double>> range_;
  struct Mark {
    double time = 0;
    QString label;
  };
  std::optional<Mark> mark_;

  enum class Drag { None, Pan, Range };
  Drag drag_ = Drag::None;
  QPointF press_pos_, last_pos_;
  bool dragged_ = false;
  double range_anchor_ = 0;
  std::optional<QPointF> hover_;

  std::vector<trace::profile::LodRun> runs_;  // scratch, reused per level
  std::size_t drawn_spans_ = 0, merged_runs_ = 0, covered_spans_ = 0;
  bool lod_ = true;
};

}  // namespace wavescope::gui
