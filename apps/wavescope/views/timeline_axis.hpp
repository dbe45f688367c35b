#pragma once
// Tick marks for the wave timeline's two axes: shader cycles (relative to the kernel's first
// instruction) and the wall time those cycles took by the shader-clock estimate.

#include <QString>

#include <vector>

namespace wavescope::trace::timeline {
class ClockEstimate;
}

namespace wavescope::gui {

struct AxisTick {
  double x = 0;  // pixels
  QString label;
};

// The smallest 1, 2 or 5 x 10^k that is >= raw (raw > 0).
double nice_step(double raw);
// Cycles as "0", "750", "12.5K", "1.2M"; `step` sets the precision.
QString format_cycles(double cycles, double step);
// A duration as "0", "350 ns", "1.25 µs", "2 ms"; `step` sets the precision (both in ns).
QString format_ns(double ns, double step);
// A duration for a reader, e.g. "612 ns", "1.25 µs" (precision from its size).
QString format_ns(double ns);

// The x of a cycle in a window [t0, t1) drawn over [x0, x0 + width).
inline double x_of_cycle(double cycle, double t0, double t1, double x0, double width) {
  return x0 + (cycle - t0) / (t1 - t0) * width;
}

// Ticks every nice number of cycles, about `spacing` pixels apart, labelled relative to origin.
std::vector<AxisTick> cycle_ticks(double t0, double t1, double origin, double x0, double width,
                                  double spacing);
// Ticks every nice wall-time interval since `origin`, placed through the clock estimate; empty
// without a clock.
std::vector<AxisTick> wall_ticks(const trace::timeline::ClockEstimate &clock, double t0, double t1,
                                 double origin, double x0, double width, double spacing);

}  // namespace wavescope::gui
