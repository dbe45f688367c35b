#include "views/timeline_axis.hpp"

#include <cmath>

#include "wavescope/trace/timeline/clock_estimate.hpp"

namespace wavescope::gui {

double nice_step(double raw) {
  if (!(raw > 0)) return 1;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  return 10 * magnitude;
}

namespace {

// Decimals that show multiples of `step` (in units of `unit`) exactly, e.g. 2 for 0.25.
int decimals_for(double step, double unit) {
  const double in_units = step / unit;
  for (int d = 0; d < 6; ++d) {
    const double scaled = in_units * std::pow(10.0, d);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) return d;
  }
  return 6;
}

// A number with at most `decimals` decimals and no trailing zeros ("2", "2.5", "1.25").
QString trimmed_number(double value, int decimals) {
  QString text = QString::number(value, 'f', decimals);
  if (text.contains('.')) {
    while (text.endsWith('0')) text.chop(1);
    if (text.endsWith('.')) text.chop(1);
  }
  if (text == QStringLiteral("-0")) text = QStringLiteral("0");
  return text;
}

}  // namespace

QString format_cycles(double cycles, double step) {
  const double magnitude = std::max(std::fabs(cycles), step);
  if (std::fabs(cycles) < step * 1e-6) return QStringLiteral("0");
  if (magnitude >= 1e6) return trimmed_number(cycles / 1e6, decimals_for(step, 1e6)) + "M";
  if (magnitude >= 1e4 || step >= 1e3)
    return trimmed_number(cycles / 1e3, decimals_for(step, 1e3)) + "K";
  return trimmed_number(cycles, decimals_for(step, 1));
}

QString format_ns(double ns, double step) {
  const double magnitude = std::max(std::fabs(ns), step);
  if (std::fabs(ns) < step * 1e-6) return QStringLiteral("0");
  if (magnitude >= 1e6) return trimmed_number(ns / 1e6, decimals_for(step, 1e6)) + " ms";
  if (magnitude >= 1e3) return trimmed_number(ns / 1e3, decimals_for(step, 1e3)) + " µs";
  return trimmed_number(ns, decimals_for(step, 1)) + " ns";
}

QString format_ns(double ns) {
  const double a = std::fabs(ns);
  if (a >= 1e6) return QString::number(ns / 1e6, 'f', 3) + " ms";
  if (a >= 1e3) return QString::number(ns / 1e3, 'f', a >= 1e5 ? 1 : 2) + " µs";
  return QString::number(ns, 'f', a >= 100 ? 0 : 1) + " ns";
}

std::vector<AxisTick> cycle_ticks(double t0, double t1, double origin, double x0, double width,
                                  double spacing) {
  std::vector<AxisTick> ticks;
  if (!(t1 > t0) || width <= 0) return ticks;
  const double step = nice_step((t1 - t0) * spacing / width);
  for (double v = std::ceil((t0 - origin) / step) * step; origin + v <= t1; v += step)
    ticks.push_back({x_of_cycle(origin + v, t0, t1, x0, width), format_cycles(v, step)});
  return ticks;
}

std::vector<AxisTick> wall_ticks(const trace::timeline::ClockEstimate &clock, double t0, double t1,
                                 double origin, double x0, double width, double spacing) {
  std::vector<AxisTick> ticks;
  if (clock.empty() || !(t1 > t0) || width <= 0) return ticks;
  const double zero = clock.ns_at(origin);
  const double a = clock.ns_at(t0) - zero, b = clock.ns_at(t1) - zero;
  if (!(b > a)) return ticks;
  const double step = nice_step((b - a) * spacing / width);
  for (double v = std::ceil(a / step) * step; v <= b; v += step)
    ticks.push_back(
        {x_of_cycle(clock.cycle_at_ns(v + zero), t0, t1, x0, width), format_ns(v, step)});
  return ticks;
}

}  // namespace wavescope::gui
