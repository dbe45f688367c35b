#include "wavescope/trace/timeline/clock_estimate.hpp"

#include <algorithm>

namespace wavescope::trace::timeline {

ClockEstimate::ClockEstimate(const std::vector<ClockPoint> &points) {
  for (const auto &p : points) {
    if (p.freq_hz <= 0 || (!times_.empty() && p.time <= times_.back())) continue;
    times_.push_back(p.time);
    hz_.push_back(static_cast<double>(p.freq_hz));
  }
  // Cycle 0 lies before the first point, where the first frequency is assumed.
  ns_.resize(times_.size());
  for (std::size_t i = 0; i < times_.size(); ++i) {
    const double from = i == 0 ? 0.0 : static_cast<double>(times_[i - 1]);
    const double start_ns = i == 0 ? 0.0 : ns_[i - 1];
    ns_[i] = start_ns + (static_cast<double>(times_[i]) - from) * 1e9 / hz_[i];
  }
}

double ClockEstimate::ns_at(double cycle) const {
  if (times_.empty()) return 0;
  // The first point whose time is >= cycle covers it.
  const auto it =
      std::lower_bound(times_.begin(), times_.end(), cycle,
                       [](std::int64_t t, double c) { return static_cast<double>(t) < c; });
  if (it == times_.end())
    return ns_.back() + (cycle - static_cast<double>(times_.back())) * 1e9 / hz_.back();
  const auto i = static_cast<std::size_t>(it - times_.begin());
  return ns_[i] - (static_cast<double>(times_[i]) - cycle) * 1e9 / hz_[i];
}

double ClockEstimate::cycle_at_ns(double ns) const {
  if (times_.empty()) return 0;
  const auto it = std::lower_bound(ns_.begin(), ns_.end(), ns);
  if (it == ns_.end())
    return static_cast<double>(times_.back()) + (ns - ns_.back()) * hz_.back() / 1e9;
  const auto i = static_cast<std::size_t>(it - ns_.begin());
  return static_cast<double>(times_[i]) - (ns_[i] - ns) * hz_[i] / 1e9;
}

double ClockEstimate::hz_at(double cycle) const {
  if (times_.empty()) return 0;
  const auto it =
      std::lower_bound(times_.begin(), times_.end(), cycle,
                       [](std::int64_t t, double c) { return static_cast<double>(t) < c; });
  return it == times_.end() ? hz_.back() : hz_[static_cast<std::size_t>(it - times_.begin())];
}

double ClockEstimate::mean_hz() const {
  if (times_.size() < 2) return hz_.empty() ? 0 : hz_.front();
  const double cycles = static_cast<double>(times_.back() - times_.front());
  const double ns = ns_.back() - ns_.front();
  return ns > 0 ? cycles * 1e9 / ns : 0;
}

std::vector<std::pair<std::int64_t, double>> ClockEstimate::smoothed(int window) const {
  std::vector<std::pair<std::int64_t, double>> out;
  if (times_.size() < 2) {
    for (std::size_t i = 0; i < times_.size(); ++i) out.emplace_back(times_[i], hz_[i]);
    return out;
  }
  const auto w = static_cast<std::size_t>(std::max(1, window));
  for (std::size_t i = 1; i < times_.size(); ++i) {
    const std::size_t first = i >= w ? i - w : 0;
    const double cycles = static_cast<double>(times_[i] - times_[first]);
    const double ns = ns_[i] - ns_[first];
    if (ns > 0) out.emplace_back(times_[i], cycles * 1e9 / ns);
  }
  return out;
}

}  // namespace wavescope::trace::timeline
