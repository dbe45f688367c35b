#include "views/wave_timeline_painter.hpp"

#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

#include "app/theme.hpp"

namespace wavescope::gui {

using trace::timeline::EventCategory;

namespace {

QString format_hz(double hz) { return QStringLiteral("%1 GHz").arg(hz / 1e9, 0, 'f', 2); }

}  // namespace

// The track labels down the left: names, counts, the clock's current value, section bands.
void WaveTimelinePainter::paint_labels(QPainter &p, const TimelineFrame &f, int first_track,
                                       int last_track) const {
  const QRectF plot = plot_rect(f.size);
  const auto *tl = model_.timeline();
  QFont font = p.font();
  font.setPointSizeF(8.5);
  QFont small = font;
  small.setPointSizeF(7.5);
  p.save();
  p.setClipRect(QRectF(0, plot.top(), kLabelWidth, plot.height()));
  p.fillRect(QRectF(0, plot.top(), kLabelWidth, plot.height()), theme::panel());
  for (int t = first_track; t <= last_track; ++t) {
    const auto &track = model_.track(t);
    const double y = track_y(f, t);
    const QRectF cell(10, y, kLabelWidth - 16, track.height);
    p.setFont(font);
    switch (track.kind) {
    case TrackKind::Section: {
      // Section bands span the canvas too: lift the label column's clip for them.
      p.save();
      p.setClipRect(QRectF(0, plot.top(), f.size.width(), plot.height()));
      QFont bold = small;
      bold.setBold(true);
      p.setFont(bold);
      p.fillRect(QRectF(0, y, f.size.width(), track.height), QColor(0x23, 0x27, 0x30));
      p.setPen(QColor(0x9a, 0xa4, 0xb5));
      p.drawText(QRectF(10, y, f.size.width() - 20, track.height), Qt::AlignVCenter,
                 track.label.toUpper());
      p.setPen(theme::muted_text());
      p.setFont(small);
      p.drawText(QRectF(10, y, f.size.width() - 20, track.height),
                 Qt::AlignVCenter | Qt::AlignRight, track.detail);
      p.restore();
      break;
    }
    case TrackKind::Clock: {
      p.setPen(theme::text());
      p.drawText(QRectF(cell.left(), y + 6, cell.width(), 16), Qt::AlignLeft, track.label);
      p.setFont(small);
      p.setPen(theme::muted_text());
      const auto &clock = model_.clock();
      const QString range = clock.empty()
                                ? QObject::tr("no estimate")
                                : QObject::tr("%1 at centre · mean %2")
                                      .arg(format_hz(clock.hz_at((f.t0 + f.t1) / 2)),
                                           QString::number(clock.mean_hz() / 1e9, 'f', 2));
      p.drawText(QRectF(cell.left(), y + 24, cell.width(), 16), Qt::AlignLeft, range);
      break;
    }
    case TrackKind::ExecUnit: {
      const auto &row = tl->rows[static_cast<std::size_t>(track.row)];
      const EventCategory c = row.events.empty()
                                  ? EventCategory::Other
                                  : model_.category_of(track.row, row.events.front());
      p.fillRect(QRectF(cell.left(), y + 6, 8, 8), theme::event_color(c));
      p.setPen(theme::text());
      p.drawText(cell.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, track.label);
      p.setFont(small);
      p.setPen(theme::muted_text());
      p.drawText(cell, Qt::AlignVCenter | Qt::AlignRight,
                 row.name.rfind("VMEM", 0) == 0 ? QStringLiteral("VMEM exec")
                                                : QStringLiteral("ALU exec"));
      break;
    }
    case TrackKind::WaveSlot: {
      p.setPen(theme::text());
      p.drawText(cell, Qt::AlignVCenter | Qt::AlignLeft, track.label);
      p.setFont(small);
      p.setPen(theme::muted_text());
      p.drawText(cell, Qt::AlignVCenter | Qt::AlignRight,
                 QString::number(tl->rows[static_cast<std::size_t>(track.row)].events.size()));
      break;
    }
    case TrackKind::Occupancy: {
      const auto &g = model_.occupancy()[static_cast<std::size_t>(track.group)];
      p.setPen(theme::text());
      p.drawText(QRectF(cell.left(), y, cell.width(), std::min<double>(track.height, 18)),
                 Qt::AlignVCenter | Qt::AlignLeft, track.label);
      p.setFont(small);
      p.setPen(theme::muted_text());
      p.drawText(QRectF(cell.left(), y, cell.width(), std::min<double>(track.height, 18)),
                 Qt::AlignVCenter | Qt::AlignRight, QObject::tr("%1 w").arg(g.waves));
      break;
    }
    }
    if (track.kind != TrackKind::Section) {
      p.setPen(QPen(QColor(0x22, 0x25, 0x2d), 1));
      p.drawLine(QPointF(0, y + track.height - 0.5),
                 QPointF(f.size.width(), y + track.height - 0.5));
    }
  }
  p.setPen(QPen(theme::grid(), 1));
  p.drawLine(QPointF(kLabelWidth - 0.5, plot.top()), QPointF(kLabelWidth - 0.5, plot.bottom()));
  p.restore();
}

// The wall-time and cycle axes along the top.
void WaveTimelinePainter::paint_axes(QPainter &p, const TimelineFrame &f,
                                     const std::vector<AxisTick> &cycle_ticks_) const {
  const QRectF plot = plot_rect(f.size);
  const double width = plot.width();
  const auto origin = static_cast<double>(model_.origin());
  QFont font = p.font();
  font.setPointSizeF(8.5);
  QFont small = font;
  small.setPointSizeF(7.5);
  p.fillRect(QRectF(0, 0, f.size.width(), kAxisHeight), theme::panel());
  p.setFont(small);
  p.setPen(theme::muted_text());
  p.drawText(QRectF(10, 2, kLabelWidth - 16, 18), Qt::AlignVCenter, QObject::tr("wall time"));
  p.drawText(QRectF(10, 22, kLabelWidth - 16, 22), Qt::AlignVCenter,
             QObject::tr("cycles from first instruction"));
  p.save();
  p.setClipRect(QRectF(plot.left(), 0, width, kAxisHeight));
  const auto wall = wall_ticks(model_.clock(), f.t0, f.t1, origin, plot.left(), width, 130);
  p.setFont(font);
  for (const auto &tick : wall) {
    p.setPen(QPen(QColor(0x5b, 0x9d, 0xff), 1));
    p.drawLine(QPointF(std::round(tick.x) + 0.5, 12), QPointF(std::round(tick.x) + 0.5, 20));
    p.setPen(QColor(0x8f, 0xbf, 0xff));
    p.drawText(QPointF(tick.x + 4, 15), tick.label);
  }
  if (wall.empty()) {
    p.setPen(theme::muted_text());
    p.drawText(QPointF(plot.left() + 6, 15), QObject::tr("–  (no clock estimate)"));
  }
  for (const auto &tick : cycle_ticks_) {
    p.setPen(QPen(theme::muted_text(), 1));
    p.drawLine(QPointF(std::round(tick.x) + 0.5, 34),
               QPointF(std::round(tick.x) + 0.5, kAxisHeight));
    p.setPen(theme::text());
    p.drawText(QPointF(tick.x + 4, 38), tick.label);
  }
  p.restore();
  p.setPen(QPen(theme::grid(), 1));
  p.drawLine(QPointF(0, kAxisHeight - 0.5), QPointF(f.size.width(), kAxisHeight - 0.5));
  p.drawLine(QPointF(0, 20.5), QPointF(f.size.width(), 20.5));
}

}  // namespace wavescope::gui
