#pragma once
// The memory graph canvas (viz.md §2.7): per device, every buffer a band from its allocation to its
// free, stacked on the buffers allocated before it that are still alive (libtrace
// memory_layout), under a time axis with adaptive units; a byte axis with adaptive units and the
// peak per device; below each graph a lane with the device's kernel runs (a selected buffer's
// users bright and named). Keys as the timeline's: W/S zoom, A/D pan, Ctrl+wheel zoom, drag pan;
// `.`/`,` next/previous buffer, ↑/↓ the device above/below, F fits the selected buffer, H the whole
// profile, Esc clears.

#include <QWidget>

#include <optional>

#include "models/memory_model.hpp"
#include "views/time_window.hpp"

namespace wavescope::gui {

class MemoryGraphWidget : public QWidget {
  Q_OBJECT
public:
  explicit MemoryGraphWidget(MemoryModel &model, QWidget *parent = nullptr);

  // Relayouts after the model changed and shows where the buffers live.
  void reset();
  // The window over the buffers of the device with the largest peak.
  void fit_buffers();
  void fit_all();
  void set_window(double t0, double t1);  // picoseconds
  double window_start() const { return window_.start(); }
  double window_end() const { return window_.end(); }

  struct BufferRef {
    int track = -1;  // memory track (MemoryModel::track index)
    int buffer = -1;
    bool operator==(const BufferRef &) const = default;
  };
  std::optional<BufferRef> selected() const { return selected_; }
  void select_buffer(BufferRef ref, bool follow = true);
  void clear_selection();
  // Scrolls a device's graph into view and makes it the current one.
  void show_track(int track);
  int current_track() const { return current_track_; }
  // Next/previous buffer (allocation order) on the selected or current device.
  void step_buffer(int direction);
  // Zooms to the selected buffer's lifetime, else to fit_buffers().
  void fit_selection();
  // The buffer under a widget position, if any.
  std::optional<BufferRef> buffer_at(QPointF pos) const;
  // Where a buffer's band is drawn at its allocation (widget coordinates), for tests.
  QPointF point_of(BufferRef ref) const;

  // Bands and band segments (one per stacking change) drawn in the last frame.
  std::size_t last_drawn_bands() const { return drawn_bands_; }
  std::size_t last_drawn_segments() const { return drawn_segments_; }

  static constexpr int kAxisHeight = 34;
  static constexpr int kGutter = 190;
  static constexpr int kLaneHeight = 18;

Q_SIGNALS:
  void buffer_selected(int track, int buffer);  // memory track, buffer
  void selection_cleared();

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
  struct Panel {
    int track = 0;   // memory track
    int y = 0;       // content y of the panel's top (below the axis)
    int plot = 0;    // plot height
    int height = 0;  // plot, lane and padding
  };
  static constexpr int kTopPad = 14;

  void relayout();
  void clamp_scroll();
  double x_of(double t) const { return window_.x_of(t); }
  double t_of(double x) const { return window_.t_of(x); }
  double ps_per_pixel() const { return window_.ps_per_pixel(); }
  const Panel *panel_at(double content_y) const;
  double byte_scale(const Panel &panel) const;  // pixels per byte
  void follow(const trace::profile::Buffer &buffer);

  void paint_axis(QPainter &p);
  void paint_panel(QPainter &p, const Panel &panel, int top);
  void paint_byte_axis(QPainter &p, const Panel &panel, int top);
  void paint_bands(QPainter &p, const Panel &panel, int top);
  void paint_runs(QPainter &p, const Panel &panel, int top);

  MemoryModel &model_;
  std::vector<Panel> panels_;
  int content_height_ = 0;
  int scroll_y_ = 0;
  TimeWindow window_{*this, kGutter};
  std::optional<BufferRef> selected_, hovered_;
  int current_track_ = -1;

  bool dragging_ = false, dragged_ = false;
  QPointF press_pos_, last_pos_;
  std::optional<QPointF> hover_;
  std::size_t drawn_bands_ = 0, drawn_segments_ = 0;
};

}  // namespace wavescope::gui
