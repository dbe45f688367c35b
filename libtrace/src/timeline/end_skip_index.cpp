#include "wavescope/trace/timeline/end_skip_index.hpp"

#include <algorithm>
#include <limits>

namespace wavescope::trace::timeline {

EndSkipIndex::EndSkipIndex(std::span<const TimelineEvent> events) {
  for (std::size_t level = 0; level < kLevels; ++level) {
    const std::size_t shift = kShift * (level + 1);
    const std::size_t block = std::size_t{1} << shift;
    auto &max_end = max_end_[level];
    max_end.assign((events.size() + block - 1) >> shift, std::numeric_limits<std::int64_t>::min());
    if (level == 0)
      for (std::size_t i = 0; i < events.size(); ++i)
        max_end[i >> shift] = std::max(max_end[i >> shift], events[i].end);
    else  // from the level below: 8 of its blocks make one of these
      for (std::size_t b = 0; b < max_end_[level - 1].size(); ++b)
        max_end[b >> kShift] = std::max(max_end[b >> kShift], max_end_[level - 1][b]);
  }
}

std::size_t EndSkipIndex::first_ending_after(std::span<const TimelineEvent> events,
                                             std::size_t from, std::size_t to,
                                             std::int64_t t) const {
  std::size_t i = from;
  while (i < to) {
    if (max_end_[0][i >> kShift] > t) {
      // Something in this block of 8 ends after t: look at its events from i on.
      const std::size_t end = std::min(to, ((i >> kShift) + 1) << kShift);
      for (; i < end; ++i)
        if (events[i].end > t) return i;
      continue;
    }
    // Skip the largest block around i whose every event ends by t (the events before i in it
    // end by t as well).
    std::size_t level = 0;
    while (level + 1 < kLevels && max_end_[level + 1][i >> (kShift * (level + 2))] <= t) ++level;
    const std::size_t shift = kShift * (level + 1);
    i = ((i >> shift) + 1) << shift;
  }
  return to;
}

}  // namespace wavescope::trace::timeline
