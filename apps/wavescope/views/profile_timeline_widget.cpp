#include "views/profile_timeline_widget.hpp"

#include <QFontMetrics>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "app/theme.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
// A pleasant, stable color per span name (Perfetto hashes names to hues the same way).
QColor span_color(std::uint32_t name) {
  std::uint32_t h = name * 2654435761u;
  h ^= h >> 15;
  const int hue = static_cast<int>(h % 360);
  return QColor::fromHsl(hue, 120 + static_cast<int>((h >> 9) % 60),
                         118 + static_cast<int>((h >> 17) % 30));
}

}  // namespace

ProfileTimelineWidget::ProfileTimelineWidget(ProfileTrackModel &model, QWidget *parent)
    : QWidget(parent), model_(model) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 200);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void ProfileTimelineWidget::reset() {
  selected_.reset();
  range_.reset();
  current_track_ = -1;
  scroll_y_ = 0;
  relayout();
  fit_all();
}

void ProfileTimelineWidget::relayout() {
  rows_.clear();
  int y = 0;
  const tp::Profile *profile = model_.profile();
  if (profile)
    for (int i = 0; i < model_.rowCount(); ++i) {
      const tp::Track &track = profile->tracks[static_cast<std::size_t>(i)];
      Row row;
      row.track = i;
      row.y = y;
      const int levels = std::max<int>(1, static_cast<int>(model_.levels(i).levels.size()));
      row.height = kHeaderHeight +
                   (track.kind == tp::TrackKind::Spans ? levels * kRowHeight : kSeriesHeight) + 6;
      y += row.height;
      rows_.push_back(row);
    }
  content_height_ = y;
  clamp_scroll();
}

int ProfileTimelineWidget::track_y(int track) const {
  for (const Row &row : rows_)
    if (row.track == track) return kAxisHeight + row.y;
  return -1;
}

void ProfileTimelineWidget::clamp_scroll() {
  const int visible = height() - kAxisHeight;
  scroll_y_ = std::clamp(scroll_y_, 0, std::max(0, content_height_ - visible));
}

void ProfileTimelineWidget::fit_all() {
  const tp::Profile *profile = model_.profile();
  const double duration =
      profile ? static_cast<double>(std::max<tp::Picoseconds>(profile->duration, 1000)) : 1e6;
  set_window(-duration * 0.01, duration * 1.01);
}

void ProfileTimelineWidget::set_window(double t0, double t1) {
  if (window_.set(t0, t1)) update();
}

void ProfileTimelineWidget::select_span(SpanRef ref, bool follow_span) {
  const tp::Profile *profile = model_.profile();
  if (!profile || ref.track < 0 || ref.track >= model_.rowCount()) return;
  const tp::Track &track = profile->tracks[static_cast<std::size_t>(ref.track)];
  if (ref.span < 0 || ref.span >= static_cast<int>(track.spans.size())) return;
  selected_ = ref;
  mark_.reset();
  current_track_ = ref.track;
  if (follow_span) follow(track.spans[static_cast<std::size_t>(ref.span)]);
  update();
  Q_EMIT span_selected(ref.track, ref.span);
}

void ProfileTimelineWidget::mark_time(double t, const QString &label) {
  mark_ = Mark{t, label};
  if (!window_.overlaps(t, t)) window_.move_to(t);
  update();
}

void ProfileTimelineWidget::clear_selection() {
  const bool had_mark = mark_.has_value();
  mark_.reset();
  if (!selected_ && !had_mark) return;
  selected_.reset();
  update();
  Q_EMIT selection_cleared();
}

void ProfileTimelineWidget::set_range(double t0, double t1) {
  if (t1 < t0) std::swap(t0, t1);
  range_ = {t0, t1};
  update();
  Q_EMIT range_changed(t0, t1);
}

void ProfileTimelineWidget::follow(const tp::Span &span) {
  const double s = static_cast<double>(span.start), e = static_cast<double>(span.end);
  if (window_.overlaps(s, e)) return;
  window_.move_to((s + e) / 2);
  update();
}

void ProfileTimelineWidget::scroll_to_track(int track) {
  for (const Row &row : rows_)
    if (row.track == track) {
      scroll_y_ = row.y;
      clamp_scroll();
      current_track_ = track;
      update();
      return;
    }
}

void ProfileTimelineWidget::step_span(int direction) {
  const tp::Profile *profile = model_.profile();
  if (!profile) return;
  int track = selected_ ? selected_->track : current_track_;
  if (track < 0) {
    for (int i = 0; i < model_.rowCount(); ++i)
      if (!profile->tracks[static_cast<std::size_t>(i)].spans.empty()) {
        track = i;
        break;
      }
    if (track < 0) return;
  }
  const auto &spans = profile->tracks[static_cast<std::size_t>(track)].spans;
  if (spans.empty()) return;
  int next;
  if (selected_ && selected_->track == track) {
    next = std::clamp(selected_->span + direction, 0, static_cast<int>(spans.size()) - 1);
  } else {
    // From the window's start: the first span starting in view (or the last before it).
    const auto it = std::lower_bound(
        spans.begin(), spans.end(), window_.start(),
        [](const tp::Span &s, double t) { return static_cast<double>(s.start) < t; });
    next = std::clamp(static_cast<int>(it - spans.begin()) - (direction < 0 ? 1 : 0), 0,
                      static_cast<int>(spans.size()) - 1);
  }
  select_span({track, next});
}

void ProfileTimelineWidget::fit_selection() {
  const tp::Profile *profile = model_.profile();
  if (profile && selected_) {
    const tp::Span &s = profile->tracks[static_cast<std::size_t>(selected_->track)]
                            .spans[static_cast<std::size_t>(selected_->span)];
    const double pad = std::max<double>(static_cast<double>(s.duration()) * 0.1, 10);
    set_window(static_cast<double>(s.start) - pad, static_cast<double>(s.end) + pad);
  } else if (range_) {
    const double pad = (range_->second - range_->first) * 0.05;
    set_window(range_->first - pad, range_->second + pad);
  } else {
    fit_all();
  }
}

std::optional<ProfileTimelineWidget::SpanRef> ProfileTimelineWidget::hit(QPointF pos) const {
  const tp::Profile *profile = model_.profile();
  if (!profile || pos.x() < kGutter || pos.y() < kAxisHeight) return std::nullopt;
  const double y = pos.y() - kAxisHeight + scroll_y_;
  for (const Row &row : rows_) {
    if (y < row.y || y >= row.y + row.height) continue;
    const tp::Track &track = profile->tracks[static_cast<std::size_t>(row.track)];
    if (track.kind != tp::TrackKind::Spans) return std::nullopt;
    const int level = static_cast<int>((y - row.y - kHeaderHeight) / kRowHeight);
    const auto &levels = model_.levels(row.track).levels;
    if (y - row.y < kHeaderHeight || level < 0 || level >= static_cast<int>(levels.size()))
      return std::nullopt;
    const auto &lv = levels[static_cast<std::size_t>(level)];
    const double t = t_of(pos.x()), slack = 3 * ps_per_pixel();
    const auto [first, last] = tp::overlapping(track, lv, static_cast<tp::Picoseconds>(t - slack),
                                               static_cast<tp::Picoseconds>(t + slack) + 1);
    if (first == last) return std::nullopt;
    // The span under the cursor, else the nearest within the slack.
    std::size_t best = first;
    double best_d = 1e300;
    for (std::size_t i = first; i < last && i < first + 64; ++i) {
      const tp::Span &s = track.spans[lv[i]];
      const double d = t < static_cast<double>(s.start) ? static_cast<double>(s.start) - t
                       : t > static_cast<double>(s.end) ? t - static_cast<double>(s.end)
                                                        : 0;
      if (d < best_d) {
        best_d = d;
        best = i;
      }
    }
    return SpanRef{row.track, static_cast<int>(lv[best])};
  }
  return std::nullopt;
}

void ProfileTimelineWidget::resizeEvent(QResizeEvent *) { clamp_scroll(); }

void ProfileTimelineWidget::paintEvent(QPaintEvent *) {
  QPainter p(this);
  p.fillRect(rect(), theme::canvas());
  drawn_spans_ = merged_runs_ = covered_spans_ = 0;
  const tp::Profile *profile = model_.profile();
  if (!profile) {
    p.setPen(theme::muted_text());
    p.drawText(rect(), Qt::AlignCenter,
               tr("No profile open.\nOpen a tinygrad profile.pkl or a Chrome/Perfetto trace JSON "
                  "(Ctrl+O)."));
    return;
  }
  // Grid lines under the tracks.
  window_.paint_grid(p, kAxisHeight, height());

  p.save();
  p.setClipRect(0, kAxisHeight, width(), height() - kAxisHeight);
  for (const Row &row : rows_) {
    const int top = kAxisHeight + row.y - scroll_y_;
    if (top + row.height < kAxisHeight || top > height()) continue;
    paint_row(p, row, top);
  }
  paint_markers(p);
  paint_mark(p);
  p.restore();
  paint_range(p);
  paint_axis(p);
  // The gutter's edge.
  p.setPen(theme::grid());
  p.drawLine(kGutter, 0, kGutter, height());
}

void ProfileTimelineWidget::paint_row(QPainter &p, const Row &row, int top) {
  const tp::Profile &profile = *model_.profile();
  const tp::Track &track = profile.tracks[static_cast<std::size_t>(row.track)];
  // Alternate track backgrounds; the current track is tinted.
  QColor band = theme::canvas();
  band = row.track % 2 ? band.lighter(112) : band;
  if (row.track == current_track_) band = band.lighter(118);
  p.fillRect(QRect(0, top, width(), row.height), band);
  p.setPen(QPen(theme::grid(), 0));
  p.drawLine(0, top + row.height - 1, width(), top + row.height - 1);

  // Gutter: the track's name, its kind and size.
  p.fillRect(QRect(0, top, kGutter, row.height), band.darker(108));
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(theme::text());
  const QFontMetrics bm(bold);
  p.drawText(QRect(8, top + 2, kGutter - 12, kHeaderHeight), Qt::AlignLeft | Qt::AlignVCenter,
             bm.elidedText(QString::fromStdString(track.name), Qt::ElideRight, kGutter - 12));
  p.setFont(font());
  p.setPen(theme::muted_text());
  QString sub;
  if (track.kind == tp::TrackKind::Spans)
    sub = tr("%n span(s)", nullptr, static_cast<int>(track.spans.size())) +
          (model_.levels(row.track).levels.size() > 1
               ? tr(", depth %1").arg(model_.levels(row.track).levels.size())
               : QString());
  else
    sub = tr("peak %1").arg(track.kind == tp::TrackKind::Memory ? format_bytes(track.peak)
                                                                : QString::number(track.peak));
  p.drawText(QRect(8, top + kHeaderHeight, kGutter - 12, kRowHeight),
             Qt::AlignLeft | Qt::AlignVCenter, sub);

  p.save();
  p.setClipRect(QRect(kGutter + 1, std::max(top, kAxisHeight), width() - kGutter, row.height));
  if (track.kind == tp::TrackKind::Spans)
    paint_spans(p, track, row.track, top + kHeaderHeight);
  else if (track.kind == tp::TrackKind::Memory)
    paint_series(p, track.usage, track.peak, QColor(0x4f, 0x9d, 0xde), top + kHeaderHeight,
                 kSeriesHeight);
  else
    paint_series(p, track.samples, track.peak, QColor(0xe0, 0x9a, 0x3e), top + kHeaderHeight,
                 kSeriesHeight);
  p.restore();
}

void ProfileTimelineWidget::paint_spans(QPainter &p, const tp::Track &track, int track_index,
                                        int top) {
  const tp::Profile &profile = *model_.profile();
  const auto &levels = model_.levels(track_index).levels;
  const double ppp = ps_per_pixel();
  const auto t0 = static_cast<tp::Picoseconds>(std::floor(window_.start()));
  const auto t1 = static_cast<tp::Picoseconds>(std::ceil(window_.end())) + 1;
  // Spans narrower than two pixels merge into runs of about two pixels: no hairline slivers.
  const auto min_width = lod_ ? static_cast<tp::Picoseconds>(std::ceil(kMinBarPixels * ppp)) : 0;
  const QFontMetrics fm(font());
  const double right = width();
  for (std::size_t level = 0; level < levels.size(); ++level) {
    const int y = top + static_cast<int>(level) * kRowHeight;
    if (y + kRowHeight < kAxisHeight || y > height()) continue;
    runs_.clear();
    tp::visible_runs(track, levels[level], t0, t1, min_width, runs_);
    for (const tp::LodRun &run : runs_) {
      covered_spans_ += run.count;
      const double x0 = std::max<double>(kGutter, x_of(static_cast<double>(run.start)));
      const double x1 = std::min(right, x_of(static_cast<double>(run.end)));
      const double w = std::max(kMinBarPixels, x1 - x0);
      const QRectF bar(x0, y + 1, w, kRowHeight - 2);
      if (run.count > 1) {
        // Merged short spans: one neutral color, brighter the more spans it holds, so density
        // reads without a confetti of hues.
        const int more = std::min(60, static_cast<int>(12 * std::log2(double(run.count))));
        p.fillRect(bar, QColor(0x5c, 0x66, 0x78).lighter(100 + more));
        ++merged_runs_;
        continue;
      }
      const tp::Span &span = track.spans[run.first];
      QColor color = span_color(span.name);
      // A short span alone keeps its hue, muted, at the minimum width.
      if (x1 - x0 < 2 * kMinBarPixels)
        color =
            QColor::fromHsl(color.hslHue(), color.hslSaturation() / 2, color.lightness() * 4 / 5);
      p.fillRect(bar, color);
      ++drawn_spans_;
      if (w >= 28) {
        const QString name = QString::fromStdString(tp::plain_text(profile.str(span.name)));
        QString label =
            name + QStringLiteral("  ") + format_time(static_cast<double>(span.duration()));
        const SpanRates rates = span_rates(profile, span);
        if (rates.gflops > 0) label += QStringLiteral("  %1 GFLOP/s").arg(rates.gflops, 0, 'f', 1);
        if (rates.gbytes_per_s > 0)
          label += QStringLiteral("  %1 GB/s").arg(rates.gbytes_per_s, 0, 'f', 1);
        p.setPen(color.lightness() > 150 ? QColor(20, 20, 24) : QColor(250, 250, 250));
        const QRectF text = bar.adjusted(4, 0, -3, 0);
        p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(fm.horizontalAdvance(label) <= text.width() ? label : name,
                                 Qt::ElideRight, static_cast<int>(text.width())));
      }
      if (selected_ && selected_->track == track_index &&
          selected_->span == static_cast<int>(run.first)) {
        p.setPen(QPen(theme::text(), 2));
        p.drawRect(bar.adjusted(1, 1, -1, -1));
      }
    }
  }
  // Instants: small ticks on the first level.
  if (!track.instants.empty()) {
    p.setPen(QPen(theme::accent(), 1.5));
    const auto first =
        std::lower_bound(track.instants.begin(), track.instants.end(), t0,
                         [](const tp::Instant &i, tp::Picoseconds t) { return i.time < t; });
    double last_x = -1;
    for (auto it = first; it != track.instants.end() && it->time < t1; ++it) {
      const double x = x_of(static_cast<double>(it->time));
      if (x - last_x < 1) continue;
      last_x = x;
      p.drawLine(QPointF(x, top), QPointF(x, top + kRowHeight - 4));
    }
  }
}

void ProfileTimelineWidget::paint_series(QPainter &p, const std::vector<tp::CounterSample> &samples,
                                         double peak, QColor color, int top, int h) {
  if (samples.empty()) return;
  const double scale = peak > 0 ? (h - 6) / peak : 0;
  const double base = top + h - 2;
  QPainterPath path;
  path.moveTo(kGutter, base);
  double value = 0;
  double last_x = kGutter;
  // Samples are a step function; per pixel the maximum is kept so peaks never vanish.
  const auto first = std::lower_bound(
      samples.begin(), samples.end(), window_.start(),
      [](const tp::CounterSample &s, double t) { return static_cast<double>(s.time) < t; });
  if (first != samples.begin()) value = std::prev(first)->value;
  path.lineTo(last_x, base - value * scale);
  for (auto it = first; it != samples.end() && static_cast<double>(it->time) <= window_.end();
       ++it) {
    const double x = std::max<double>(kGutter, x_of(static_cast<double>(it->time)));
    path.lineTo(x, base - value * scale);
    value = it->value;
    path.lineTo(x, base - value * scale);
    last_x = x;
  }
  path.lineTo(width(), base - value * scale);
  path.lineTo(width(), base);
  path.closeSubpath();
  QColor fill = color;
  fill.setAlpha(110);
  p.fillPath(path, fill);
  p.setPen(QPen(color, 1.2));
  p.drawPath(path);
  (void)last_x;
}

void ProfileTimelineWidget::paint_markers(QPainter &p) {
  const tp::Profile &profile = *model_.profile();
  for (const tp::Marker &m : profile.markers) {
    const double x = x_of(static_cast<double>(m.time));
    if (x < kGutter || x > width()) continue;
    QColor c = m.color.empty() ? QColor(0xe8, 0x5d, 0x75) : QColor(QString::fromStdString(m.color));
    if (!c.isValid()) c = QColor(0xe8, 0x5d, 0x75);
    p.setPen(QPen(c, 1, Qt::DashLine));
    p.drawLine(QPointF(x, kAxisHeight), QPointF(x, height()));
  }
}

void ProfileTimelineWidget::paint_mark(QPainter &p) {
  if (!mark_) return;
  const double x = x_of(mark_->time);
  if (x < kGutter || x > width()) return;
  p.setPen(QPen(theme::accent(), 2));
  p.drawLine(QPointF(x, kAxisHeight), QPointF(x, height()));
  if (mark_->label.isEmpty()) return;
  const QFontMetrics fm(font());
  const int w = fm.horizontalAdvance(mark_->label) + 10;
  const double left = std::min<double>(x + 3, width() - w - 2);
  const QRectF box(left, kAxisHeight + 2, w, 16);
  p.fillRect(box, theme::accent().darker(160));
  p.setPen(QColor(255, 255, 255));
  p.drawText(box, Qt::AlignCenter, mark_->label);
}

void ProfileTimelineWidget::paint_range(QPainter &p) {
  if (!range_) return;
  const double x0 = std::max<double>(kGutter, x_of(range_->first));
  const double x1 = std::min<double>(width(), x_of(range_->second));
  if (x1 < kGutter || x0 > width()) return;
  QColor shade = theme::selection();
  shade.setAlpha(50);
  p.fillRect(QRectF(x0, kAxisHeight, std::max(1.0, x1 - x0), height() - kAxisHeight), shade);
  p.setPen(QPen(theme::selection(), 1));
  p.drawLine(QPointF(x0, 0), QPointF(x0, height()));
  p.drawLine(QPointF(x1, 0), QPointF(x1, height()));
}

void ProfileTimelineWidget::paint_axis(QPainter &p) {
  window_.paint_axis(p, kAxisHeight);
  const QFontMetrics fm(font());
  // Markers' names on the axis.
  const tp::Profile &profile = *model_.profile();
  for (const tp::Marker &m : profile.markers) {
    const double x = x_of(static_cast<double>(m.time));
    if (x < kGutter || x > width()) continue;
    p.setPen(QColor(0xe8, 0x5d, 0x75));
    p.drawText(QPointF(x + 2, 11), QString::fromStdString(m.name));
  }
  // The selected range's duration, on the range.
  if (range_) {
    const double x0 = std::max<double>(kGutter, x_of(range_->first));
    const double x1 = std::min<double>(width(), x_of(range_->second));
    const QString label = format_time(range_->second - range_->first);
    const int w = fm.horizontalAdvance(label) + 12;
    const QRectF box((x0 + x1) / 2 - w / 2.0, 2, w, 16);
    p.fillRect(box, theme::selection());
    p.setPen(QColor(255, 255, 255));
    p.drawText(box, Qt::AlignCenter, label);
  }
}

void ProfileTimelineWidget::wheelEvent(QWheelEvent *event) {
  if (!window_.wheel(*event)) {
    scroll_y_ -= static_cast<int>(event->angleDelta().y() / 120.0 * 3 * kRowHeight);
    clamp_scroll();
  }
  update();
  event->accept();
}

void ProfileTimelineWidget::mousePressEvent(QMouseEvent *event) {
  setFocus();
  press_pos_ = last_pos_ = event->position();
  dragged_ = false;
  if (event->button() != Qt::LeftButton) return;
  if (event->position().y() < kAxisHeight && event->position().x() >= kGutter) {
    drag_ = Drag::Range;
    range_anchor_ = t_of(event->position().x());
  } else {
    drag_ = Drag::Pan;
  }
}

void ProfileTimelineWidget::mouseMoveEvent(QMouseEvent *event) {
  hover_ = event->position();
  if (drag_ == Drag::None) return;
  const QPointF d = event->position() - last_pos_;
  last_pos_ = event->position();
  if ((event->position() - press_pos_).manhattanLength() > 3) dragged_ = true;
  if (!dragged_) return;
  if (drag_ == Drag::Range) {
    set_range(range_anchor_, t_of(event->position().x()));
  } else {
    window_.pan_pixels(-d.x());
    scroll_y_ -= static_cast<int>(d.y());
    clamp_scroll();
    update();
  }
}

void ProfileTimelineWidget::mouseReleaseEvent(QMouseEvent *event) {
  const Drag drag = drag_;
  drag_ = Drag::None;
  if (dragged_ || event->button() != Qt::LeftButton) return;
  if (drag == Drag::Range) {
    if (range_) {
      range_.reset();
      update();
      Q_EMIT range_cleared();
    }
    return;
  }
  if (const auto ref = hit(event->position()))
    select_span(*ref, false);
  else
    clear_selection();
}

void ProfileTimelineWidget::mouseDoubleClickEvent(QMouseEvent *event) {
  if (const auto ref = hit(event->position())) {
    select_span(*ref, false);
    fit_selection();
  }
}

void ProfileTimelineWidget::leaveEvent(QEvent *) { hover_.reset(); }

void ProfileTimelineWidget::keyPressEvent(QKeyEvent *event) {
  if (event->matches(QKeySequence::Find) ||
      (event->key() == Qt::Key_P && (event->modifiers() & Qt::ControlModifier))) {
    Q_EMIT find_track_requested();
    return;
  }
  if (window_.key(*event, hover_)) {
    update();
    event->accept();
    return;
  }
  switch (event->key()) {
  case Qt::Key_Period: step_span(1); break;
  case Qt::Key_Comma: step_span(-1); break;
  case Qt::Key_F: fit_selection(); break;
  case Qt::Key_Escape:
    if (range_) {
      range_.reset();
      update();
      Q_EMIT range_cleared();
    } else {
      clear_selection();
    }
    break;
  default: QWidget::keyPressEvent(event); return;
  }
  event->accept();
}

}  // namespace wavescope::gui
