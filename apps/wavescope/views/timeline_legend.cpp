#include "views/timeline_legend.hpp"

#include <QPainter>

#include "app/theme.hpp"

namespace wavescope::gui {

TimelineLegend::TimelineLegend(QWidget *parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TimelineLegend::set_categories(std::vector<trace::timeline::EventCategory> categories,
                                    bool occupancy, bool states) {
  categories_ = std::move(categories);
  occupancy_ = occupancy;
  states_ = states;
  update();
}

QSize TimelineLegend::sizeHint() const { return {600, 20}; }

void TimelineLegend::paintEvent(QPaintEvent *) {
  QPainter p(this);
  QFont font = p.font();
  font.setPointSizeF(8);
  p.setFont(font);
  const QFontMetrics metrics(font);
  int x = 4;
  auto swatch = [&](const QColor &color, const QString &label, bool lane = false) {
    const int w = metrics.horizontalAdvance(label);
    if (x + w + 20 > width()) return;
    if (lane)
      p.fillRect(QRect(x, height() / 2 - 1, 12, 3), color);
    else
      p.fillRect(QRect(x, height() / 2 - 5, 10, 10), color);
    p.setPen(theme::muted_text());
    p.drawText(QRect(x + 15, 0, w + 2, height()), Qt::AlignVCenter, label);
    x += w + 28;
  };
  for (const auto c : categories_) swatch(theme::event_color(c), theme::event_category_label(c));
  if (occupancy_) {
    swatch(theme::traced_wave_color(), tr("traced wave"), true);
    swatch(theme::other_wave_color(), tr("other wave"), true);
  }
  if (states_) {
    using trace::timeline::WaveState;
    for (const auto s : {WaveState::Idle, WaveState::Exec, WaveState::Wait, WaveState::Stall})
      swatch(theme::wave_state_color(s),
             QString::fromLatin1(trace::timeline::to_string(s).data(),
                                 int(trace::timeline::to_string(s).size())),
             true);
  }
}

}  // namespace wavescope::gui
