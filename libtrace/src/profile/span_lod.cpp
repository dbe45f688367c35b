#include "wavescope/trace/profile/span_lod.hpp"

#include <algorithm>

namespace wavescope::trace::profile {

std::size_t TrackLevels::span_count() const {
  std::size_t n = 0;
  for (const auto &level : levels) n += level.size();
  return n;
}

TrackLevels levels_of(const Track &track) {
  TrackLevels out;
  std::uint32_t depth = track.levels;
  for (const Span &span : track.spans) depth = std::max(depth, span.depth + 1);
  out.levels.resize(depth);
  for (std::size_t i = 0; i < track.spans.size(); ++i)
    out.levels[track.spans[i].depth].push_back(static_cast<std::uint32_t>(i));
  return out;
}

std::pair<std::size_t, std::size_t> overlapping(const Track &track,
                                                const std::vector<std::uint32_t> &level,
                                                Picoseconds t0, Picoseconds t1) {
  const auto &spans = track.spans;
  const auto first = std::partition_point(level.begin(), level.end(),
                                          [&](std::uint32_t i) { return spans[i].end <= t0; });
  const auto last = std::partition_point(first, level.end(),
                                         [&](std::uint32_t i) { return spans[i].start < t1; });
  return {static_cast<std::size_t>(first - level.begin()),
          static_cast<std::size_t>(last - level.begin())};
}

std::size_t visible_runs(const Track &track, const std::vector<std::uint32_t> &level,
                         Picoseconds t0, Picoseconds t1, Picoseconds min_width,
                         std::vector<LodRun> &out) {
  const auto &spans = track.spans;
  auto [i, n] = overlapping(track, level, t0, t1);
  const std::size_t before = out.size();
  while (i < n) {
    const Span &s = spans[level[i]];
    LodRun run{s.start, s.end, level[i], static_cast<std::uint32_t>(i), 1};
    if (min_width > 0 && s.duration() < min_width) {
      // Merge the narrow spans that start within a pixel of this one; a wide span among them
      // ends the run so it is drawn (and named) on its own.
      const Picoseconds limit = s.start + min_width;
      auto j = static_cast<std::size_t>(
          std::partition_point(level.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                               level.begin() + static_cast<std::ptrdiff_t>(n),
                               [&](std::uint32_t k) { return spans[k].start < limit; }) -
          level.begin());
      if (j > i + 1 && spans[level[j - 1]].duration() >= min_width) --j;
      run.count = static_cast<std::uint32_t>(j - i);
      run.end = spans[level[j - 1]].end;
      i = j;
    } else {
      ++i;
    }
    out.push_back(run);
  }
  return out.size() - before;
}

}  // namespace wavescope::trace::profile
