// ClockSummary: the median to 1 MHz, from the kept points and, past kMaxKept, from the histogram,
// equals the definition (the smallest MHz value with at least half of the points at or below it).

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "wavescope/trace/timeline/capture_analysis.hpp"

using wavescope::trace::timeline::ClockPoint;
using wavescope::trace::timeline::ClockSummary;

namespace {

std::int64_t median_by_definition(std::vector<std::int64_t> hz) {
  std::vector<std::int64_t> mhz;
  for (auto h : hz) mhz.push_back(std::clamp<std::int64_t>(h / 1'000'000, 0, 20000));
  std::sort(mhz.begin(), mhz.end());
  for (std::size_t i = 0; i < mhz.size(); ++i) {
    const auto v = mhz[i];
    const auto at_or_below = std::size_t(std::upper_bound(mhz.begin(), mhz.end(), v) - mhz.begin());
    if (2 * at_or_below >= mhz.size()) return v * 1'000'000 + 500'000;
  }
  return 0;
}

}  // namespace

TEST_CASE("ClockSummary's median equals its definition below and above kMaxKept points") {
  std::mt19937_64 rng(11);
  std::size_t checked = 0;
  for (std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{40}, ClockSummary::kMaxKept,
        ClockSummary::kMaxKept + 1, 3 * ClockSummary::kMaxKept + 7}) {
    ClockSummary summary;
    std::vector<std::int64_t> hz;
    // Around 1-3 GHz, with outliers below 0 and above 20 GHz that clamp.
    std::uniform_int_distribution<std::int64_t> dist(-2'000'000'000, 25'000'000'000);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t v = i % 5 ? 1'000'000'000 + dist(rng) % 2'000'000'000 : dist(rng);
      hz.push_back(v);
      summary.on_clock(ClockPoint{std::int64_t(i), v});
    }
    INFO(n << " points");
    CHECK(summary.points() == n);
    CHECK(summary.median_hz() == median_by_definition(hz));
    CHECK(summary.min_hz() == *std::min_element(hz.begin(), hz.end()));
    CHECK(summary.max_hz() == *std::max_element(hz.begin(), hz.end()));
    ++checked;
  }
  CHECK(checked == 7);
  CHECK(ClockSummary().median_hz() == 0);
}
