#include "views/clock_chart.hpp"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

#include "app/capture_document.hpp"
#include "app/theme.hpp"
#include "views/timeline_axis.hpp"
#include "wavescope/trace/timeline/clock_estimate.hpp"

namespace wavescope::gui {

ClockChart::ClockChart(QWidget *parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(180);
  // Drag to zoom into a cycle range, right-click to zoom out.
  setRubberBand(QChartView::HorizontalRubberBand);
  setBackgroundBrush(theme::canvas());
  show_dispatch(nullptr);
}

void ClockChart::show_dispatch(const CaptureDispatch *dispatch, int highlight) {
  auto *chart = new QChart;
  chart->setTheme(QChart::ChartThemeDark);
  chart->setBackgroundBrush(theme::canvas());
  chart->setPlotAreaBackgroundBrush(theme::background());
  chart->setPlotAreaBackgroundVisible(true);
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setLabelColor(theme::text());
  QFont title_font = font();
  title_font.setBold(true);
  chart->setTitleFont(title_font);
  chart->setTitleBrush(theme::text());
  chart->setTitle(tr("Shader clock estimate per SE: each marker pair (faint steps) and the "
                     "average of %1 pairs (bold) · drag to zoom, right-click to zoom out")
                      .arg(kWindow));

  auto *x = new QValueAxis;
  auto *y = new QValueAxis;
  x->setTitleText(tr("K cycles since the SE's first instruction"));
  y->setTitleText(tr("GHz"));
  for (auto *axis : {x, y}) {
    axis->setLabelsColor(theme::muted_text());
    axis->setTitleBrush(theme::muted_text());
    axis->setGridLineColor(theme::grid());
    axis->setLinePenColor(theme::grid());
  }
  x->setLabelFormat(QStringLiteral("%.0f"));
  y->setLabelFormat(QStringLiteral("%.1f"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);

  double x_lo = 0, x_hi = 1, y_hi = 1;
  bool any = false;
  plotted_ = 0;
  double kernel_span = 0;  // cycles of the first traced SE's instruction range
  auto hide_from_legend = [&](QAbstractSeries *series) {
    for (auto *marker : chart->legend()->markers(series)) marker->setVisible(false);
  };
  if (dispatch)
    for (std::size_t i = 0; i < dispatch->engines.size(); ++i) {
      const auto &se = dispatch->engines[i];
      const trace::timeline::ClockEstimate clock(se.timeline.clock);
      if (clock.empty()) continue;
      // The SE's origin: its first instruction event, else its first wave.
      std::int64_t origin = se.timeline.end, last = se.timeline.begin;
      for (const auto &row : se.timeline.rows)
        for (const auto &e : row.events)
          origin = std::min(origin, e.start), last = std::max(last, e.end);
      if (origin > last) {
        origin = se.timeline.begin;
        for (const auto &w : se.timeline.waves) origin = std::min(origin, w.start);
      } else if (kernel_span == 0 || static_cast<int>(i) == highlight) {
        kernel_span = static_cast<double>(last - origin);
      }
      const QColor color = theme::series_color(static_cast<int>(i));
      // Each raw estimate holds from the previous marker to its own: a faint step line.
      auto *raw = new QLineSeries;
      QColor faint = color;
      faint.setAlpha(70);
      raw->setPen(QPen(faint, 1));
      const auto &times = clock.times();
      const auto &hz = clock.frequencies_hz();
      for (std::size_t k = 0; k < times.size(); ++k) {
        const double from =
            static_cast<double>(k ? times[k - 1] : times[k] - 1) - static_cast<double>(origin);
        const double to = static_cast<double>(times[k]) - static_cast<double>(origin);
        raw->append(from / 1000.0, hz[k] / 1e9);
        raw->append(to / 1000.0, hz[k] / 1e9);
        y_hi = std::max(y_hi, hz[k] / 1e9);
        x_lo = any ? std::min(x_lo, from / 1000.0) : from / 1000.0;
        x_hi = any ? std::max(x_hi, to / 1000.0) : to / 1000.0;
        any = true;
      }
      chart->addSeries(raw);
      raw->attachAxis(x);
      raw->attachAxis(y);
      hide_from_legend(raw);
      auto *series = new QLineSeries;
      series->setName(
          tr("SE %1 · mean %2 GHz").arg(se.blob->se).arg(clock.mean_hz() / 1e9, 0, 'f', 2));
      series->setPen(QPen(color, static_cast<int>(i) == highlight ? 3.0 : 1.6));
      // The average holds over the segment that ends at its point, like the raw estimates.
      const auto smoothed = clock.smoothed(kWindow);
      for (std::size_t k = 0; k < smoothed.size(); ++k) {
        const auto [t, v] = smoothed[k];
        const auto it = std::lower_bound(times.begin(), times.end(), t);
        const std::int64_t from = it == times.begin() ? t : *(it - 1);
        series->append(static_cast<double>(from - origin) / 1000.0, v / 1e9);
        series->append(static_cast<double>(t - origin) / 1000.0, v / 1e9);
      }
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      ++plotted_;
    }
  if (any && kernel_span > 0) {
    // The kernel's instruction range, where the waves view's axis starts at 0.
    auto *upper = new QLineSeries;
    auto *lower = new QLineSeries;
    const double top = std::ceil(y_hi * 1.15 * 2) / 2;
    upper->append(0, top);
    upper->append(kernel_span / 1000.0, top);
    lower->append(0, 0);
    lower->append(kernel_span / 1000.0, 0);
    auto *band = new QAreaSeries(upper, lower);
    upper->setParent(band);  // an area series does not own its boundary lines
    lower->setParent(band);
    band->setName(tr("kernel instructions"));
    band->setColor(QColor(0x4f, 0xa3, 0xff, 40));
    band->setBorderColor(QColor(0x4f, 0xa3, 0xff, 120));
    chart->addSeries(band);
    band->attachAxis(x);
    band->attachAxis(y);
  }
  if (!any) {
    chart->setTitle(tr("Shader clock: no realtime markers in this dispatch's blobs (CDNA traces "
                       "have none; on RDNA4 only SEs that ran traced waves do)"));
    x->hide();
    y->hide();
  }
  data_range_ = {x_lo, std::max(x_hi, x_lo + 1)};
  kernel_range_ = data_range_;
  if (kernel_span > 0) {
    const double k = kernel_span / 1000.0;
    kernel_range_ = {std::max(x_lo, -5 * k), std::min(data_range_.second, 6 * k)};
    if (kernel_range_.second <= kernel_range_.first) kernel_range_ = data_range_;
  }
  y->setRange(0, std::ceil(y_hi * 1.15 * 2) / 2);
  y->setTickCount(5);
  QChart *old = this->chart();
  setChart(chart);
  delete old;
  apply_range();
}

void ClockChart::set_whole_trace(bool whole) {
  whole_ = whole;
  apply_range();
}

void ClockChart::apply_range() {
  const auto axes = chart()->axes(Qt::Horizontal);
  if (axes.isEmpty()) return;
  const auto [lo, hi] = whole_ ? data_range_ : kernel_range_;
  auto *axis = static_cast<QValueAxis *>(axes.front());
  axis->setRange(lo, hi);
  // Round ticks through 0, where the kernel's first instruction is.
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0);
  const double step = nice_step((hi - lo) / 8);
  axis->setTickInterval(step);
  axis->setLabelFormat(step >= 1     ? QStringLiteral("%.0f")
                       : step >= 0.1 ? QStringLiteral("%.1f")
                                     : QStringLiteral("%.2f"));
}

std::pair<double, double> ClockChart::x_range() const {
  const auto axes = chart()->axes(Qt::Horizontal);
  if (axes.isEmpty()) return {0, 0};
  const auto *axis = static_cast<const QValueAxis *>(axes.front());
  return {axis->min(), axis->max()};
}

}  // namespace wavescope::gui
