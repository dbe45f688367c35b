#pragma once
// The shader clock of one SE as a function of cycles (spec sqtt.md §13, viz.md §2.8): the
// frequency estimates between consecutive realtime markers, integrated piecewise so any cycle
// maps to wall time. Each point (t_i, f_i) covers the cycles (t_{i-1}, t_i]; before the first
// and after the last point the edge frequency is assumed. Integrating 1/f over a segment gives
// back the realtime ticks its markers measured, so the wall-time axis is as exact as the trace.

#include <cstdint>
#include <utility>
#include <vector>

#include "wavescope/trace/timeline/events.hpp"

namespace wavescope::trace::timeline {

class ClockEstimate {
public:
  ClockEstimate() = default;
  // Points with a non-positive frequency are dropped.
  explicit ClockEstimate(const std::vector<ClockPoint> &points);

  bool empty() const { return times_.empty(); }
  std::size_t size() const { return times_.size(); }
  const std::vector<std::int64_t> &times() const { return times_; }
  const std::vector<double> &frequencies_hz() const { return hz_; }

  // Nanoseconds from cycle 0 of the blob's counter to `cycle` (negative before it is fine);
  // 0 when there is no clock.
  double ns_at(double cycle) const;
  // The cycle at which ns_at() reaches `ns` (the inverse; monotonic).
  double cycle_at_ns(double ns) const;
  // The frequency in effect at `cycle` (Hz), 0 without a clock.
  double hz_at(double cycle) const;
  // Cycles per elapsed time over all points (the mean frequency), 0 without a clock.
  double mean_hz() const;
  // Frequency averaged over windows of `window` consecutive segments (cycles over time, so
  // short noisy segments weigh what they last): (time of the window's last point, Hz).
  std::vector<std::pair<std::int64_t, double>> smoothed(int window) const;

private:
  std::vector<std::int64_t> times_;
  std::vector<double> hz_;
  std::vector<double> ns_;  // ns_at(times_[i])
};

}  // namespace wavescope::trace::timeline
