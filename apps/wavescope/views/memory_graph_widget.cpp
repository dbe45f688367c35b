#include "views/memory_graph_widget.hpp"

#include <QFontMetrics>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "app/theme.hpp"
#include "models/profile_track_model.hpp"
#include "views/timeline_axis.hpp"

namespace wavescope::gui {

namespace tp = trace::profile;

namespace {
// Six purples, alternating light and dark so neighbouring bands part (VIZ cycles six purples).
QColor band_color(std::size_t buffer) {
  static const QColor kPurples[] = {QColor(0x5b, 0x4f, 0xc7), QColor(0x3e, 0x31, 0x96),
                                    QColor(0x7c, 0x6a, 0xe0), QColor(0x4a, 0x3c, 0xad),
                                    QColor(0x93, 0x82, 0xec), QColor(0x35, 0x29, 0x82)};
  return kPurples[buffer % 6];
}

QColor kernel_color(const std::string &name) {
  std::uint32_t h = 2166136261u;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return QColor::fromHsl(static_cast<int>(h % 360), 150, 150);
}
}  // namespace

MemoryGraphWidget::MemoryGraphWidget(MemoryModel &model, QWidget *parent)
    : QWidget(parent), model_(model) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 200);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void MemoryGraphWidget::reset() {
  selected_.reset();
  hovered_.reset();
  current_track_ = model_.track_count() ? 0 : -1;
  scroll_y_ = 0;
  relayout();
  fit_buffers();
}

void MemoryGraphWidget::relayout() {
  panels_.clear();
  const int n = model_.track_count();
  int y = 0;
  if (n > 0) {
    // Share the height; each graph between 140 and 420 px.
    const int available = std::max(0, height() - kAxisHeight);
    const int per = available / n - (kTopPad + kLaneHeight + 14);
    const int plot = std::clamp(per, 140, 420);
    for (int i = 0; i < n; ++i) {
      Panel panel;
      panel.track = i;
      panel.y = y;
      panel.plot = plot;
      panel.height = kTopPad + plot + kLaneHeight + 14;
      y += panel.height;
      panels_.push_back(panel);
    }
  }
  content_height_ = y;
  clamp_scroll();
}

void MemoryGraphWidget::clamp_scroll() {
  const int visible = height() - kAxisHeight;
  scroll_y_ = std::clamp(scroll_y_, 0, std::max(0, content_height_ - visible));
}

void MemoryGraphWidget::fit_all() {
  const tp::Profile *profile = model_.profile();
  const double duration =
      profile ? static_cast<double>(std::max<tp::Picoseconds>(profile->duration, 1000)) : 1e6;
  set_window(-duration * 0.01, duration * 1.01);
}

void MemoryGraphWidget::fit_buffers() {
  // The device with the largest peak decides: from its first allocation to its last free.
  int best = -1;
  for (int i = 0; i < model_.track_count(); ++i)
    if (!model_.track(i).buffers.empty() &&
        (best < 0 || model_.layout(i).peak > model_.layout(best).peak))
      best = i;
  if (best < 0) {
    fit_all();
    return;
  }
  tp::Picoseconds a = INT64_MAX, b = INT64_MIN;
  for (const tp::Buffer &buf : model_.track(best).buffers) {
    a = std::min(a, buf.allocated);
    b = std::max(b, buf.freed);
  }
  const double w = std::max<double>(static_cast<double>(b - a), 1000);
  set_window(static_cast<double>(a) - w * 0.03, static_cast<double>(b) + w * 0.03);
}

void MemoryGraphWidget::set_window(double t0, double t1) {
  if (window_.set(t0, t1)) update();
}

double MemoryGraphWidget::byte_scale(const Panel &panel) const {
  const double peak = static_cast<double>(model_.layout(panel.track).peak);
  return peak > 0 ? (panel.plot - 4) / (peak * 1.08) : 0;
}

const MemoryGraphWidget::Panel *MemoryGraphWidget::panel_at(double content_y) const {
  for (const Panel &panel : panels_)
    if (content_y >= panel.y && content_y < panel.y + panel.height) return &panel;
  return nullptr;
}

std::optional<MemoryGraphWidget::BufferRef> MemoryGraphWidget::buffer_at(QPointF pos) const {
  if (!model_.profile() || pos.x() < kGutter || pos.y() < kAxisHeight) return std::nullopt;
  const double y = pos.y() - kAxisHeight + scroll_y_;
  const Panel *panel = panel_at(y);
  if (!panel) return std::nullopt;
  const double bottom = panel->y + kTopPad + panel->plot;
  const double scale = byte_scale(*panel);
  if (scale <= 0 || y > bottom) return std::nullopt;
  const tp::Track &track = model_.track(panel->track);
  const tp::MemoryLayout &layout = model_.layout(panel->track);
  const auto t = static_cast<tp::Picoseconds>(t_of(pos.x()));
  const double bytes = (bottom - y) / scale;
  int hit = layout.buffer_at(track, t, bytes);
  if (hit < 0) {
    // Bands thinner than a few pixels: the nearest band within 3 px.
    double best = 3 / scale;
    for (const std::uint32_t i : layout.alive_at(track, t)) {
      const double lo = static_cast<double>(layout.bands[i].base_at(t));
      const double hi = lo + static_cast<double>(track.buffers[i].bytes());
      const double d = bytes < lo ? lo - bytes : bytes > hi ? bytes - hi : 0;
      if (d < best) {
        best = d;
        hit = static_cast<int>(i);
      }
    }
  }
  if (hit < 0) return std::nullopt;
  return BufferRef{panel->track, hit};
}

QPointF MemoryGraphWidget::point_of(BufferRef ref) const {
  for (const Panel &panel : panels_) {
    if (panel.track != ref.track) continue;
    const tp::Track &track = model_.track(ref.track);
    if (ref.buffer < 0 || ref.buffer >= static_cast<int>(track.buffers.size())) break;
    const tp::Buffer &b = track.buffers[static_cast<std::size_t>(ref.buffer)];
    const auto &band = model_.layout(ref.track).bands[static_cast<std::size_t>(ref.buffer)];
    const double mid = static_cast<double>(b.allocated + (b.freed - b.allocated) / 2);
    const double bytes = static_cast<double>(band.base_at(static_cast<tp::Picoseconds>(mid))) +
                         static_cast<double>(b.bytes()) / 2;
    const double bottom = kAxisHeight + panel.y - scroll_y_ + kTopPad + panel.plot;
    return {x_of(mid), bottom - bytes * byte_scale(panel)};
  }
  return {-1, -1};
}

void MemoryGraphWidget::select_buffer(BufferRef ref, bool follow_buffer) {
  if (ref.track < 0 || ref.track >= model_.track_count()) return;
  const tp::Track &track = model_.track(ref.track);
  if (ref.buffer < 0 || ref.buffer >= static_cast<int>(track.buffers.size())) return;
  selected_ = ref;
  current_track_ = ref.track;
  if (follow_buffer) {
    follow(track.buffers[static_cast<std::size_t>(ref.buffer)]);
    for (const Panel &panel : panels_)
      if (panel.track == ref.track &&
          (panel.y < scroll_y_ || panel.y + panel.height > scroll_y_ + height() - kAxisHeight)) {
        scroll_y_ = panel.y;
        clamp_scroll();
      }
  }
  update();
  Q_EMIT buffer_selected(ref.track, ref.buffer);
}

void MemoryGraphWidget::clear_selection() {
  if (!selected_) return;
  selected_.reset();
  update();
  Q_EMIT selection_cleared();
}

void MemoryGraphWidget::show_track(int track) {
  if (track < 0 || track >= model_.track_count()) return;
  current_track_ = track;
  for (const Panel &panel : panels_)
    if (panel.track == track) {
      scroll_y_ = panel.y;
      clamp_scroll();
    }
  update();
}

void MemoryGraphWidget::follow(const tp::Buffer &b) {
  const double s = static_cast<double>(b.allocated), e = static_cast<double>(b.freed);
  if (window_.overlaps(s, e)) return;
  window_.move_to(s, 0.1);
  update();
}

void MemoryGraphWidget::step_buffer(int direction) {
  int track = selected_ ? selected_->track : current_track_;
  if (track < 0 || track >= model_.track_count()) return;
  const int n = static_cast<int>(model_.track(track).buffers.size());
  if (n == 0) return;
  const int next = selected_ && selected_->track == track
                       ? std::clamp(selected_->buffer + direction, 0, n - 1)
                       : (direction > 0 ? 0 : n - 1);
  select_buffer({track, next});
}

void MemoryGraphWidget::fit_selection() {
  if (!selected_) {
    fit_buffers();
    return;
  }
  const tp::Buffer &b =
      model_.track(selected_->track).buffers[static_cast<std::size_t>(selected_->buffer)];
  const double w = std::max<double>(static_cast<double>(b.freed - b.allocated), 1000);
  set_window(static_cast<double>(b.allocated) - w * 0.1, static_cast<double>(b.freed) + w * 0.1);
}

void MemoryGraphWidget::resizeEvent(QResizeEvent *) { relayout(); }

void MemoryGraphWidget::paintEvent(QPaintEvent *) {
  QPainter p(this);
  p.fillRect(rect(), theme::canvas());
  drawn_bands_ = drawn_segments_ = 0;
  if (!model_.profile() || model_.track_count() == 0) {
    p.setPen(theme::muted_text());
    p.drawText(rect(), Qt::AlignCenter,
               model_.profile()
                   ? tr("This profile has no allocations (no alloc/free events).")
                   : tr("No profile open.\nOpen a tinygrad profile.pkl to see its memory."));
    return;
  }
  window_.paint_grid(p, kAxisHeight, height());
  p.save();
  p.setClipRect(0, kAxisHeight, width(), height() - kAxisHeight);
  for (const Panel &panel : panels_) {
    const int top = kAxisHeight + panel.y - scroll_y_;
    if (top + panel.height < kAxisHeight || top > height()) continue;
    paint_panel(p, panel, top);
  }
  p.restore();
  paint_axis(p);
  p.setPen(theme::grid());
  p.drawLine(kGutter, 0, kGutter, height());
}

void MemoryGraphWidget::paint_panel(QPainter &p, const Panel &panel, int top) {
  const tp::Track &track = model_.track(panel.track);
  const tp::MemoryLayout &layout = model_.layout(panel.track);
  QColor band = theme::canvas();
  if (panel.track == current_track_) band = band.lighter(112);
  p.fillRect(QRect(0, top, width(), panel.height), band);
  p.setPen(QPen(theme::grid(), 0));
  p.drawLine(0, top + panel.height - 1, width(), top + panel.height - 1);

  // Gutter: the device, its peak, when, and how many buffers.
  p.fillRect(QRect(0, top, kGutter, panel.height), band.darker(108));
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(theme::text());
  const QFontMetrics bm(bold);
  p.drawText(QRect(8, top + 4, kGutter - 16, 18), Qt::AlignLeft | Qt::AlignVCenter,
             bm.elidedText(QString::fromStdString(track.name), Qt::ElideRight, kGutter - 16));
  p.setFont(font());
  p.setPen(theme::muted_text());
  const QStringList lines = {tr("peak %1").arg(format_bytes(static_cast<double>(layout.peak))),
                             tr("at %1").arg(format_time(static_cast<double>(layout.peak_time))),
                             tr("%n buffer(s)", nullptr, static_cast<int>(track.buffers.size())),
                             tr("%1 alive at most").arg(layout.max_buffers)};
  for (int i = 0; i < lines.size(); ++i)
    p.drawText(QRect(8, top + 24 + i * 16, kGutter - 70, 16), Qt::AlignLeft | Qt::AlignVCenter,
               lines[i]);

  paint_byte_axis(p, panel, top);
  p.setPen(theme::muted_text());
  p.drawText(QRect(kGutter - 70, top + kTopPad + panel.plot + 4, 62, kLaneHeight),
             Qt::AlignRight | Qt::AlignVCenter, tr("runs"));
  p.save();
  p.setClipRect(QRect(kGutter + 1, std::max(top, kAxisHeight), width() - kGutter, panel.height));
  paint_bands(p, panel, top);
  paint_runs(p, panel, top);
  p.restore();
}

void MemoryGraphWidget::paint_byte_axis(QPainter &p, const Panel &panel, int top) {
  const double scale = byte_scale(panel);
  if (scale <= 0) return;
  const double bottom = top + kTopPad + panel.plot;
  const double peak = static_cast<double>(model_.layout(panel.track).peak);
  const double step = nice_step(34 / scale);
  const QFontMetrics fm(font());
  p.setPen(QPen(theme::muted_text(), 0));
  p.drawLine(QPointF(kGutter - 4, bottom), QPointF(kGutter - 4, bottom - peak * 1.08 * scale));
  for (double v = 0; v <= peak * 1.08; v += step) {
    const double y = bottom - v * scale;
    p.setPen(QPen(theme::muted_text(), 0));
    p.drawLine(QPointF(kGutter - 8, y), QPointF(kGutter - 4, y));
    const QString label = format_bytes(v, step);
    p.drawText(QRectF(kGutter - 70, y - 8, 60, 16), Qt::AlignRight | Qt::AlignVCenter, label);
    // Faint horizontal grid across the graph.
    QColor g = theme::grid();
    g.setAlpha(110);
    p.setPen(QPen(g, 0));
    p.drawLine(QPointF(kGutter + 1, y), QPointF(width(), y));
  }
  // The peak: a dashed line with its value.
  const double y = bottom - peak * scale;
  QColor c(0xe8, 0xb0, 0x4a);
  p.setPen(QPen(c, 1, Qt::DashLine));
  p.drawLine(QPointF(kGutter + 1, y), QPointF(width(), y));
  const QString label = tr("peak %1").arg(format_bytes(peak));
  p.setPen(c);
  p.drawText(QPointF(width() - fm.horizontalAdvance(label) - 8, y - 4), label);
}

void MemoryGraphWidget::paint_bands(QPainter &p, const Panel &panel, int top) {
  const tp::Track &track = model_.track(panel.track);
  const tp::MemoryLayout &layout = model_.layout(panel.track);
  const double scale = byte_scale(panel);
  const double bottom = top + kTopPad + panel.plot;
  const auto t0 = static_cast<tp::Picoseconds>(std::floor(window_.start()));
  const auto t1 = static_cast<tp::Picoseconds>(std::ceil(window_.end()));
  const double left = kGutter + 1, right = width();
  QPainterPath selected_path, hovered_path;
  for (std::size_t i = 0; i < track.buffers.size(); ++i) {
    const tp::Buffer &b = track.buffers[i];
    if (b.freed < t0 || b.allocated > t1 || b.freed <= b.allocated) continue;
    const auto &steps = layout.bands[i].steps;
    const bool is_selected =
        selected_ && selected_->track == panel.track && selected_->buffer == static_cast<int>(i);
    const bool is_hovered =
        hovered_ && hovered_->track == panel.track && hovered_->buffer == static_cast<int>(i);
    QColor fill = band_color(i);
    if (is_selected)
      fill = fill.lighter(145);
    else if (is_hovered)
      fill = fill.lighter(120);
    const double h = std::max(1.0, static_cast<double>(b.bytes()) * scale);
    ++drawn_bands_;
    // The steps overlapping the window, found by binary search.
    auto it = std::upper_bound(steps.begin(), steps.end(), t0,
                               [](tp::Picoseconds t, const tp::BandStep &s) { return t < s.time; });
    if (it != steps.begin()) --it;
    for (; it != steps.end() && it->time <= t1; ++it) {
      const tp::Picoseconds end = std::next(it) == steps.end() ? b.freed : std::next(it)->time;
      const double x0 = std::max(left, x_of(static_cast<double>(it->time)));
      const double x1 = std::min(right, x_of(static_cast<double>(end)));
      if (x1 < left || x0 > right) continue;
      const double y1 = bottom - static_cast<double>(it->base) * scale;
      const QRectF seg(x0, y1 - h, std::max(1.0, x1 - x0), h);
      p.fillRect(seg, fill);
      // A darker seam on top parts stacked bands of one color.
      if (h >= 3) p.fillRect(QRectF(seg.left(), seg.top(), seg.width(), 1), fill.darker(150));
      ++drawn_segments_;
      if (is_selected) selected_path.addRect(seg);
      if (is_hovered) hovered_path.addRect(seg);
    }
  }
  if (!hovered_path.isEmpty()) {
    p.setPen(QPen(QColor(255, 255, 255, 140), 1));
    p.setBrush(Qt::NoBrush);
    p.drawPath(hovered_path.simplified());
  }
  if (!selected_path.isEmpty()) {
    p.setPen(QPen(QColor(255, 255, 255), 2));
    p.setBrush(Qt::NoBrush);
    p.drawPath(selected_path.simplified());
  }
}

void MemoryGraphWidget::paint_runs(QPainter &p, const Panel &panel, int top) {
  const tp::Profile &profile = *model_.profile();
  const tp::Track &track = model_.track(panel.track);
  const int lane = top + kTopPad + panel.plot + 4;
  // The selected buffer's users, to brighten and name their runs.
  std::vector<std::uint64_t> users;
  if (selected_ && selected_->track == panel.track)
    for (const tp::BufferUser &u : track.buffers[static_cast<std::size_t>(selected_->buffer)].users)
      users.push_back(u.exec);
  const QFontMetrics fm(font());
  double last_label_end = -1e9;
  for (const tp::Execution &x : profile.executions) {
    if (x.device != track.device) continue;
    const double x_pos = x_of(static_cast<double>(x.time));
    if (x_pos < kGutter || x_pos > width()) continue;
    const bool user = std::find(users.begin(), users.end(), x.run) != users.end();
    QColor c = kernel_color(tp::plain_text(x.name));
    if (!user && !users.empty()) c.setAlpha(70);
    p.setPen(QPen(c, user ? 2.5 : 1.5));
    p.drawLine(QPointF(x_pos, lane + 2), QPointF(x_pos, lane + kLaneHeight - 2));
    if (user && x_pos > last_label_end) {
      const QString name = QString::fromStdString(tp::plain_text(x.name)).simplified();
      p.setPen(theme::text());
      p.drawText(QPointF(x_pos + 4, lane + kLaneHeight - 5), name);
      last_label_end = x_pos + fm.horizontalAdvance(name) + 10;
    }
  }
}

void MemoryGraphWidget::paint_axis(QPainter &p) { window_.paint_axis(p, kAxisHeight); }

void MemoryGraphWidget::wheelEvent(QWheelEvent *event) {
  if (!window_.wheel(*event)) {
    scroll_y_ -= static_cast<int>(event->angleDelta().y() / 120.0 * 60);
    clamp_scroll();
  }
  update();
  event->accept();
}

void MemoryGraphWidget::mousePressEvent(QMouseEvent *event) {
  setFocus();
  press_pos_ = last_pos_ = event->position();
  dragged_ = false;
  dragging_ = event->button() == Qt::LeftButton;
}

void MemoryGraphWidget::mouseMoveEvent(QMouseEvent *event) {
  hover_ = event->position();
  if (!dragging_) {
    const auto hit = buffer_at(event->position());
    if (hit != hovered_) {
      hovered_ = hit;
      update();
    }
    if (hit)
      QToolTip::showText(event->globalPosition().toPoint(),
                         model_.buffer_summary(model_.profile_track(hit->track), hit->buffer),
                         this);
    else
      QToolTip::hideText();
    return;
  }
  const QPointF d = event->position() - last_pos_;
  last_pos_ = event->position();
  if ((event->position() - press_pos_).manhattanLength() > 3) dragged_ = true;
  if (!dragged_) return;
  window_.pan_pixels(-d.x());
  scroll_y_ -= static_cast<int>(d.y());
  clamp_scroll();
  update();
}

void MemoryGraphWidget::mouseReleaseEvent(QMouseEvent *event) {
  const bool was_drag = dragged_;
  dragging_ = dragged_ = false;
  if (was_drag || event->button() != Qt::LeftButton) return;
  if (const auto ref = buffer_at(event->position()))
    select_buffer(*ref, false);
  else
    clear_selection();
}

void MemoryGraphWidget::mouseDoubleClickEvent(QMouseEvent *event) {
  if (const auto ref = buffer_at(event->position())) {
    select_buffer(*ref, false);
    fit_selection();
  }
}

void MemoryGraphWidget::leaveEvent(QEvent *) {
  hover_.reset();
  if (hovered_) {
    hovered_.reset();
    update();
  }
}

void MemoryGraphWidget::keyPressEvent(QKeyEvent *event) {
  if (window_.key(*event, hover_)) {
    update();
    event->accept();
    return;
  }
  switch (event->key()) {
  case Qt::Key_Period: step_buffer(1); break;
  case Qt::Key_Comma: step_buffer(-1); break;
  case Qt::Key_F: fit_selection(); break;
  case Qt::Key_H: fit_all(); break;
  case Qt::Key_Up:
  case Qt::Key_Down: {
    const int n = model_.track_count();
    if (n == 0) break;
    const int from = selected_ ? selected_->track : std::max(0, current_track_);
    selected_.reset();
    show_track(std::clamp(from + (event->key() == Qt::Key_Down ? 1 : -1), 0, n - 1));
    Q_EMIT selection_cleared();
    break;
  }
  case Qt::Key_Escape: clear_selection(); break;
  default: QWidget::keyPressEvent(event); return;
  }
  event->accept();
}

}  // namespace wavescope::gui
