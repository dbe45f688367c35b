#include "views/wave_timeline_painter.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <span>

#include "app/theme.hpp"
#include "views/timeline_axis.hpp"

namespace wavescope::gui {

using trace::timeline::EventCategory;
using trace::timeline::TimelineEvent;
using trace::timeline::TimelineRow;
using trace::timeline::WaveState;

namespace {

const QColor kSelected(0x00, 0xc7, 0x2f);
const QColor kOutline(0x85, 0x8b, 0x9d);
const QColor kClockLine(0x4f, 0xa3, 0xff);

// Rectangles batched per color: one drawRects call per color per frame.
class RectBatch {
public:
  void add(const QColor &color, const QRectF &rect) {
    const QRgb key = color.rgba();
    for (auto &[c, rects] : batches_)
      if (c == key) {
        rects.push_back(rect);
        return;
      }
    batches_.push_back({key, {rect}});
  }
  void flush(QPainter &p) {
    p.setPen(Qt::NoPen);
    for (auto &[c, rects] : batches_) {
      p.setBrush(QColor::fromRgba(c));
      p.drawRects(rects.data(), static_cast<int>(rects.size()));
    }
    batches_.clear();
  }

private:
  std::vector<std::pair<QRgb, std::vector<QRectF>>> batches_;
};

// Adjacent one-pixel columns of one color on one row, drawn as one rectangle.
class ColumnRun {
public:
  ColumnRun(RectBatch &batch, double y, double height) : batch_(batch), y_(y), height_(height) {}
  ~ColumnRun() { flush(); }
  void add(double column, const QColor &color) {
    if (open_ && column == x1_ && color.rgba() == color_) {
      x1_ = column + 1;
      return;
    }
    flush();
    open_ = true;
    x0_ = column;
    x1_ = column + 1;
    color_ = color.rgba();
  }
  void flush() {
    if (open_) batch_.add(QColor::fromRgba(color_), QRectF(x0_, y_, x1_ - x0_, height_));
    open_ = false;
  }

private:
  RectBatch &batch_;
  double y_, height_;
  bool open_ = false;
  double x0_ = 0, x1_ = 0;
  QRgb color_ = 0;
};

struct BarText {
  QRectF rect;
  QString text;
  QColor color;
};

QColor bar_color(const TimelineEvent &e, EventCategory category, bool exec) {
  QColor c = theme::event_color(category);
  // Another SIMD's work executed on this one (the _ALT queues) is drawn dimmer, as in VIZ.
  if (exec && e.name.find("_ALT") != std::string_view::npos) c = c.darker(170);
  return c;
}

}  // namespace

QRectF WaveTimelinePainter::plot_rect(QSize size) {
  return QRectF(kLabelWidth, kAxisHeight, std::max(1, size.width() - kLabelWidth),
                std::max(0, size.height() - kAxisHeight));
}

double WaveTimelinePainter::x_of(const TimelineFrame &f, double cycle) {
  const QRectF plot = plot_rect(f.size);
  return x_of_cycle(cycle, f.t0, f.t1, plot.left(), plot.width());
}

double WaveTimelinePainter::cycle_at(const TimelineFrame &f, double x) {
  const QRectF plot = plot_rect(f.size);
  return f.t0 + (x - plot.left()) / plot.width() * (f.t1 - f.t0);
}

int WaveTimelinePainter::track_y(const TimelineFrame &f, int track) const {
  return kAxisHeight + model_.track_top(track) - f.scroll_y;
}

int WaveTimelinePainter::lane_at(int track, double y_in_track) const {
  const auto &t = model_.track(track);
  if (t.kind != TrackKind::Occupancy) return -1;
  const int lanes =
      static_cast<int>(model_.occupancy()[static_cast<std::size_t>(t.group)].lanes.size());
  const int lane = static_cast<int>(std::floor((y_in_track - 3) / WaveTimelineModel::kLaneHeight));
  return std::clamp(lane, 0, std::max(0, lanes - 1));
}

QRectF WaveTimelinePainter::bar_rect(const TimelineFrame &f, TimelineEventRef ref) const {
  if (!ref.valid()) return {};
  const double x0 = x_of(f, static_cast<double>(model_.start_of(ref)));
  const double x1 = std::max(x0 + 2, x_of(f, static_cast<double>(model_.end_of(ref))));
  const double y = track_y(f, ref.track);
  if (model_.bar(ref))
    return QRectF(x0, y + 3 + ref.lane * WaveTimelineModel::kLaneHeight, x1 - x0,
                  WaveTimelineModel::kLaneHeight - 1);
  if (!model_.event(ref)) return {};
  return QRectF(x0, y + kBarInset, x1 - x0, kBarHeight);
}

// One frame's shared state, handed to each phase of paint(): the frame, the plot area, the fonts,
// the visible tracks, and what the phases collect (bars, outlines, labels, stats).
struct WaveTimelinePainter::PaintContext {
  QPainter &p;
  const TimelineFrame &f;
  const trace::timeline::SeTimeline &tl;
  QRectF plot;
  double width = 0;  // plot.width()
  QFont font, small;
  QFontMetricsF metrics, small_metrics;
  std::vector<AxisTick> cycle_ticks;
  int first_track = 0, last_track = -1;  // the visible tracks, inclusive
  TimelinePaintStats stats{};
  RectBatch batch{};
  std::vector<BarText> texts{};
  std::vector<QRectF> outlines{};
};

TimelinePaintStats WaveTimelinePainter::paint(QPainter &p, const TimelineFrame &f) const {
  const QRectF plot = plot_rect(f.size);
  p.fillRect(QRectF(QPointF(0, 0), QSizeF(f.size)), theme::canvas());
  const auto *tl = model_.timeline();
  if (!tl) return {};

  QFont font = p.font();
  font.setPointSizeF(8.5);
  QFont small = font;
  small.setPointSizeF(7.5);
  PaintContext c{.p = p,
                 .f = f,
                 .tl = *tl,
                 .plot = plot,
                 .width = plot.width(),
                 .font = font,
                 .small = small,
                 .metrics = QFontMetricsF(font),
                 .small_metrics = QFontMetricsF(small),
                 .cycle_ticks = cycle_ticks(f.t0, f.t1, static_cast<double>(model_.origin()),
                                            plot.left(), plot.width(), 110)};
  find_visible_tracks(c);

  p.save();
  p.setClipRect(QRectF(plot.left(), plot.top(), c.width, plot.height()));
  paint_grid(c);
  paint_tracks(c);
  paint_bar_details(c);
  paint_focused_wave(c);
  paint_pc_events(c);
  paint_selection(c);
  paint_measure(c);
  p.restore();

  paint_labels(p, f, c.first_track, c.last_track);
  paint_axes(p, f, c.cycle_ticks);
  return c.stats;
}

// Which tracks are visible.
void WaveTimelinePainter::find_visible_tracks(PaintContext &c) const {
  const int count = static_cast<int>(model_.tracks().size());
  c.first_track = std::max(0, model_.track_at_y(c.f.scroll_y));
  c.last_track = model_.track_at_y(c.f.scroll_y + static_cast<int>(c.plot.height()));
  if (c.last_track < 0) c.last_track = count - 1;
}

// Grid: faint vertical lines at the cycle ticks, zebra on wave rows.
void WaveTimelinePainter::paint_grid(PaintContext &c) const {
  QPainter &p = c.p;
  const QRectF &plot = c.plot;
  for (int t = c.first_track; t <= c.last_track; ++t) {
    const auto &track = model_.track(t);
    const double y = track_y(c.f, t);
    if (track.kind == TrackKind::Section)
      p.fillRect(QRectF(plot.left(), y, c.width, track.height), theme::panel());
    else if (track.kind == TrackKind::WaveSlot && t % 2)
      p.fillRect(QRectF(plot.left(), y, c.width, track.height), QColor(0x15, 0x18, 0x1e));
  }
  p.setPen(QPen(theme::grid(), 1));
  for (const auto &tick : c.cycle_ticks)
    p.drawLine(QPointF(std::round(tick.x) + 0.5, plot.top()),
               QPointF(std::round(tick.x) + 0.5, plot.bottom()));
}

// Every visible track's content: bars and columns into the batch, the clock drawn directly.
void WaveTimelinePainter::paint_tracks(PaintContext &c) const {
  for (int t = c.first_track; t <= c.last_track; ++t) {
    const auto &track = model_.track(t);
    ++c.stats.tracks;
    switch (track.kind) {
    case TrackKind::Clock: paint_clock(c, t); break;
    case TrackKind::ExecUnit: paint_row(c, t, track.row, model_.skip_index(track.row), true); break;
    case TrackKind::WaveSlot:
      paint_row(c, t, track.row, model_.skip_index(track.row), false);
      paint_states(c, t, track.row);
      break;
    case TrackKind::Occupancy:
      paint_occupancy(c, t, model_.occupancy()[static_cast<std::size_t>(track.group)]);
      break;
    case TrackKind::Section: break;
    }
  }
}

// Exec-unit and wave-slot rows.
void WaveTimelinePainter::paint_row(PaintContext &c, int t, int row_index, const EndSkipIndex &skip,
                                    bool exec) const {
  const TimelineFrame &f = c.f;
  const QRectF &plot = c.plot;
  const TimelineRow &row = c.tl.rows[static_cast<std::size_t>(row_index)];
  const double y = track_y(f, t) + kBarInset;
  const std::span<const TimelineEvent> events(row.events);
  const auto [first, last] = row.overlapping(static_cast<std::int64_t>(std::floor(f.t0)),
                                             static_cast<std::int64_t>(std::ceil(f.t1)) + 1);
  std::size_t i =
      skip.first_ending_after(events, first, last, static_cast<std::int64_t>(std::floor(f.t0)));
  double last_column = -1;
  ColumnRun run(c.batch, y, kBarHeight);
  while (i < last) {
    const auto &e = events[i];
    const double x0 = x_of(f, static_cast<double>(e.start));
    const double x1 = x_of(f, static_cast<double>(e.end));
    if (x1 - x0 >= 1.0) {
      const QRectF r(QPointF(std::max(x0, plot.left() - 2), y),
                     QPointF(std::min(x1, plot.right() + 2), y + kBarHeight));
      c.batch.add(bar_color(e, model_.category_of(row_index, e), exec), r);
      ++c.stats.bars;
      if (r.width() > 10) c.outlines.push_back(r);
      if (r.width() > 24) {
        QString text = exec ? QString::fromUtf8(e.name.data(), static_cast<int>(e.name.size()))
                       : e.has_pc
                           ? model_.mnemonic(e.pc)
                           : QString::fromUtf8(e.name.data(), static_cast<int>(e.name.size()));
        if (e.category == EventCategory::Barrier)
          text = QStringLiteral("%1 · %2 cyc").arg(text).arg(e.end - e.start);
        c.texts.push_back({r, text, QColor(0x10, 0x12, 0x16)});
      }
      ++i;
      continue;
    }
    // Sub-pixel: one column stands for everything that ends inside this pixel.
    const double column = std::max(std::floor(x0), std::floor(plot.left()));
    if (column != last_column) {
      run.add(column, bar_color(e, model_.category_of(row_index, e), exec));
      ++c.stats.columns;
      last_column = column;
    }
    const double next = cycle_at(f, column + 1);
    i = skip.first_ending_after(events, i + 1, last, static_cast<std::int64_t>(std::floor(next)));
  }
}

// A wave row's state lane: IDLE/EXEC/WAIT/STALL runs of its traced waves. A pixel column that
// holds several runs shows the most telling of them (STALL, then WAIT, EXEC, IDLE), so stalls
// stay visible when zoomed out.
void WaveTimelinePainter::paint_states(PaintContext &c, int t, int row_index) const {
  const TimelineFrame &f = c.f;
  const TimelineRow &row = c.tl.rows[static_cast<std::size_t>(row_index)];
  if (row.states.empty()) return;
  const double y = track_y(f, t) + kStateLaneInset;
  const auto [first, last] = row.states_overlapping(static_cast<std::int64_t>(std::floor(f.t0)),
                                                    static_cast<std::int64_t>(std::ceil(f.t1)) + 1);
  ColumnRun run(c.batch, y, kStateLaneHeight);
  double column = -1;
  WaveState shown = WaveState::Idle;
  auto emit_column = [&] {
    if (column < 0) return;
    run.add(column, theme::wave_state_color(shown));
    ++c.stats.columns;
  };
  for (std::size_t i = first; i < last; ++i) {
    const auto &s = row.states[i];
    const double x0 = std::max(x_of(f, static_cast<double>(s.start)), c.plot.left());
    const double x1 = std::min(x_of(f, static_cast<double>(s.end)), c.plot.right());
    if (x1 - x0 >= 1.0) {
      emit_column();
      column = -1;
      c.batch.add(theme::wave_state_color(s.state), QRectF(x0, y, x1 - x0, kStateLaneHeight));
      ++c.stats.bars;
    } else if (std::floor(x0) != column) {
      emit_column();
      column = std::floor(x0);
      shown = s.state;
    } else if (static_cast<int>(s.state) > static_cast<int>(shown)) {
      shown = s.state;  // Idle < Exec < Wait < Stall in the enum
    }
  }
  emit_column();
}

// Occupancy lanes: wave lifetimes, sorted by start and end alike.
void WaveTimelinePainter::paint_occupancy(PaintContext &c, int t,
                                          const OccupancyGroup &group) const {
  const TimelineFrame &f = c.f;
  const QRectF &plot = c.plot;
  const double top = track_y(f, t) + 3;
  for (std::size_t l = 0; l < group.lanes.size(); ++l) {
    const auto &lane = group.lanes[l];
    const double y = top + static_cast<double>(l) * WaveTimelineModel::kLaneHeight;
    auto ends_after = [&](auto from, double cycle) {
      return std::lower_bound(from, lane.end(), cycle, [](const OccupancyBar &b, double at) {
        return static_cast<double>(b.end) <= at;
      });
    };
    double last_column = -1;
    ColumnRun run(c.batch, y, WaveTimelineModel::kLaneHeight - 1);
    for (auto it = ends_after(lane.begin(), f.t0);
         it != lane.end() && static_cast<double>(it->start) < f.t1;) {
      const double x0 = x_of(f, static_cast<double>(it->start));
      const double x1 = x_of(f, static_cast<double>(it->end));
      const QColor color = it->mapped ? theme::traced_wave_color() : theme::other_wave_color();
      if (x1 - x0 >= 1.0) {
        c.batch.add(color, QRectF(QPointF(std::max(x0, plot.left() - 2), y),
                                  QPointF(std::min(x1, plot.right() + 2),
                                          y + WaveTimelineModel::kLaneHeight - 1)));
        ++c.stats.bars;
        ++it;
        continue;
      }
      const double column = std::max(std::floor(x0), std::floor(plot.left()));
      if (column != last_column) {
        run.add(column, color);
        ++c.stats.columns;
        last_column = column;
      }
      it = ends_after(it + 1, cycle_at(f, column + 1));
    }
  }
}

// The shader clock as a step line: each estimate holds since the previous marker.
void WaveTimelinePainter::paint_clock(PaintContext &c, int t) const {
  QPainter &p = c.p;
  const QRectF &plot = c.plot;
  const auto &clock = model_.clock();
  const double top = track_y(c.f, t) + 6, height = WaveTimelineModel::kClockHeight - 10;
  if (clock.empty()) {
    p.setPen(theme::muted_text());
    p.setFont(c.small);
    p.drawText(
        QRectF(plot.left() + 8, top, c.width - 16, height), Qt::AlignVCenter,
        QObject::tr("no realtime markers in this blob, so no clock estimate and no wall time"));
    return;
  }
  const auto &hz = clock.frequencies_hz();
  const double max_hz = *std::max_element(hz.begin(), hz.end()) * 1.1;
  auto y_of = [&](double v) { return top + height - v / max_hz * height; };
  // Reference lines every GHz.
  p.setFont(c.small);
  for (double g = 1e9; g < max_hz; g += 1e9) {
    p.setPen(QPen(theme::grid(), 1, Qt::DotLine));
    p.drawLine(QPointF(plot.left(), y_of(g)), QPointF(plot.right(), y_of(g)));
    p.setPen(theme::muted_text());
    p.drawText(QPointF(plot.right() - 40, y_of(g) - 2), QStringLiteral("%1 GHz").arg(g / 1e9));
  }
  const QPolygonF line = clock_step_line(c, top, height, max_hz);
  if (line.isEmpty()) return;
  // The area under the line as one rectangle per step (a polygon of thousands of vertical
  // edges is slow to rasterize).
  std::vector<QRectF> area;
  area.reserve(static_cast<std::size_t>(line.size() / 2));
  for (qsizetype i = 0; i + 1 < line.size(); i += 2)
    area.emplace_back(QPointF(line[i].x(), line[i].y()), QPointF(line[i + 1].x(), top + height));
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(kClockLine.red(), kClockLine.green(), kClockLine.blue(), 45));
  p.drawRects(area.data(), static_cast<int>(area.size()));
  p.setPen(QPen(kClockLine, 1.4));
  p.setBrush(Qt::NoBrush);
  p.drawPolyline(line);
  c.stats.bars += static_cast<std::size_t>(line.size() / 2);
}

// The clock's step line in [top, top + height], max_hz at the top: pairs of points, one pair per
// step.
QPolygonF WaveTimelinePainter::clock_step_line(const PaintContext &c, double top, double height,
                                               double max_hz) const {
  const TimelineFrame &f = c.f;
  const QRectF &plot = c.plot;
  const auto &clock = model_.clock();
  const auto &times = clock.times();
  const auto &hz = clock.frequencies_hz();
  auto y_of = [&](double v) { return top + height - v / max_hz * height; };
  const auto first = static_cast<std::size_t>(
      std::lower_bound(times.begin(), times.end(), static_cast<std::int64_t>(f.t0)) -
      times.begin());
  // A step line: each estimate holds from the previous marker to its own. With more markers in
  // view than half the pixels, each pixel column shows the mean frequency over its cycles
  // (cycles over integrated time), which costs two lookups per column.
  QPolygonF line;
  const auto last = static_cast<std::size_t>(
      std::lower_bound(times.begin(), times.end(), static_cast<std::int64_t>(std::ceil(f.t1))) -
      times.begin());
  if (static_cast<double>(last - first) > c.width / 2) {
    for (double x = std::floor(plot.left()); x < plot.right(); x += 1) {
      const double c0 = cycle_at(f, x), c1 = cycle_at(f, x + 1);
      const double ns = clock.ns_at(c1) - clock.ns_at(c0);
      const double y = y_of(ns > 0 ? (c1 - c0) * 1e9 / ns : 0);
      line << QPointF(x, y) << QPointF(x + 1, y);
    }
  } else {
    for (std::size_t i = first > 0 ? first - 1 : 0; i < times.size(); ++i) {
      const double x_start = std::max(
          plot.left() - 2, i == 0 ? plot.left() - 2 : x_of(f, static_cast<double>(times[i - 1])));
      const double x_end = std::min(plot.right() + 2, x_of(f, static_cast<double>(times[i])));
      line << QPointF(x_start, y_of(hz[i])) << QPointF(x_end, y_of(hz[i]));
      if (x_end >= plot.right()) break;
    }
    if (!line.isEmpty() && times.back() < f.t1)
      line << QPointF(line.back().x(), line.back().y())
           << QPointF(plot.right() + 2, line.back().y());
  }
  return line;
}

// The batched bars, then their outlines and the labels that fit.
void WaveTimelinePainter::paint_bar_details(PaintContext &c) const {
  QPainter &p = c.p;
  c.batch.flush(p);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(kOutline, 1));
  for (const auto &r : c.outlines) p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
  p.setFont(c.small);
  for (const auto &text : c.texts) {
    // A label cut to a stub ("v_…") says nothing: draw it once six characters fit.
    const QString shown =
        c.small_metrics.elidedText(text.text, Qt::ElideRight, text.rect.width() - 6);
    if (shown != text.text && shown.size() < 7) continue;
    p.setPen(text.color);
    p.drawText(text.rect.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, shown);
    ++c.stats.texts;
  }
}

// The focused wave: its lifetime on its slot row and its occupancy bar.
void WaveTimelinePainter::paint_focused_wave(PaintContext &c) const {
  QPainter &p = c.p;
  const TimelineFrame &f = c.f;
  if (f.focused_wave < 0 || static_cast<std::size_t>(f.focused_wave) >= c.tl.waves.size()) return;
  const auto &w = c.tl.waves[static_cast<std::size_t>(f.focused_wave)];
  const double x0 = x_of(f, static_cast<double>(w.start)), x1 = x_of(f, static_cast<double>(w.end));
  if (w.traced)
    if (const int row = c.tl.wave_row(w.slot); row >= 0) {
      const int t = model_.track_of_row(row);
      p.fillRect(
          QRectF(x0, track_y(f, t) + 1, std::max(1.0, x1 - x0), WaveTimelineModel::kRowHeight - 2),
          QColor(255, 255, 255, 28));
    }
  const QRectF bar = bar_rect(f, model_.wave_bar(f.focused_wave));
  p.setPen(QPen(Qt::white, 1.5));
  if (!bar.isEmpty()) p.drawRect(bar.adjusted(-1, -1, 1, 1));
}

// Every event of the selected PC: a tick above its bar (one per pixel column and track).
void WaveTimelinePainter::paint_pc_events(PaintContext &c) const {
  QPainter &p = c.p;
  const TimelineFrame &f = c.f;
  if (!f.pc_events || f.pc_events->empty()) return;
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(0xf0, 0xf0, 0xf5));
  const auto &refs = *f.pc_events;
  for (std::size_t i = 0; i < refs.size();) {
    const int t = refs[i].track;
    std::size_t end = i;
    while (end < refs.size() && refs[end].track == t) ++end;
    if (t >= c.first_track && t <= c.last_track) {
      // Indices grow with time within a track: start at the first one in view.
      auto it = std::lower_bound(refs.begin() + static_cast<std::ptrdiff_t>(i),
                                 refs.begin() + static_cast<std::ptrdiff_t>(end), f.t0,
                                 [&](const TimelineEventRef &r, double cycle) {
                                   return static_cast<double>(model_.end_of(r)) < cycle;
                                 });
      double last_x = -1;
      const double y = track_y(f, t) + 1;
      for (; it != refs.begin() + static_cast<std::ptrdiff_t>(end); ++it) {
        const double x = std::floor(x_of(f, static_cast<double>(model_.start_of(*it))));
        if (x > c.plot.right()) break;
        if (x == last_x) continue;
        last_x = x;
        const QPointF tri[3] = {{x - 3, y}, {x + 4, y}, {x + 0.5, y + 3.5}};
        p.drawPolygon(tri, 3);
      }
    }
    i = end;
  }
}

// Hover, selection and the dispatch -> exec link.
void WaveTimelinePainter::paint_selection(PaintContext &c) const {
  QPainter &p = c.p;
  const TimelineFrame &f = c.f;
  if (f.hovered.valid() && !(f.hovered == f.selected)) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0xd0, 0xd4, 0xdc), 1));
    p.drawRect(bar_rect(f, f.hovered).adjusted(-1, -1, 1, 1));
  }
  if (!f.selected.valid()) return;
  const QRectF a = bar_rect(f, f.selected);
  const TimelineEventRef partner = model_.partner(f.selected);
  p.setBrush(Qt::NoBrush);
  if (partner.valid()) {
    const QRectF b = bar_rect(f, partner);
    const bool down = b.center().y() > a.center().y();
    const QPointF from(a.center().x(), down ? a.bottom() : a.top());
    const QPointF to(b.center().x(), down ? b.top() : b.bottom());
    const double bend = std::max(18.0, std::fabs(to.y() - from.y()) * 0.45) * (down ? 1 : -1);
    QPainterPath curve(from);
    curve.cubicTo(from + QPointF(0, bend), to - QPointF(0, bend), to);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(0xb8, 0xbc, 0xc6), 1.4));
    p.drawPath(curve);
    p.setPen(QPen(kSelected, 1.5));
    p.drawRect(b.adjusted(-1, -1, 1, 1));
    p.setRenderHint(QPainter::Antialiasing, false);
  }
  p.setPen(QPen(kSelected, 2));
  p.drawRect(a.adjusted(-1.5, -1.5, 1.5, 1.5));
}

// A measured range: a band with its length in cycles and wall time.
void WaveTimelinePainter::paint_measure(PaintContext &c) const {
  QPainter &p = c.p;
  const TimelineFrame &f = c.f;
  const QRectF &plot = c.plot;
  if (!f.measure) return;
  const double m0 = std::min(f.measure->first, f.measure->second);
  const double m1 = std::max(f.measure->first, f.measure->second);
  const double x0 = x_of(f, m0), x1 = x_of(f, m1);
  p.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()), QColor(0x4f, 0xa3, 0xff, 38));
  p.setPen(QPen(QColor(0x4f, 0xa3, 0xff), 1));
  p.drawLine(QPointF(x0, plot.top()), QPointF(x0, plot.bottom()));
  p.drawLine(QPointF(x1, plot.top()), QPointF(x1, plot.bottom()));
  QString text = QObject::tr("Δ %1 cycles").arg(QString::number(m1 - m0, 'f', 0));
  if (!model_.clock().empty())
    text += QStringLiteral(" · ") + format_ns(model_.clock().ns_at(m1) - model_.clock().ns_at(m0));
  p.setFont(c.font);
  const QRectF box(std::min(std::max(x0, plot.left() + 2),
                            plot.right() - c.metrics.horizontalAdvance(text) - 14),
                   plot.top() + 4, c.metrics.horizontalAdvance(text) + 12, c.metrics.height() + 6);
  p.fillRect(box, QColor(0x1a, 0x2c, 0x44));
  p.setPen(Qt::white);
  p.drawText(box, Qt::AlignCenter, text);
}

}  // namespace wavescope::gui
