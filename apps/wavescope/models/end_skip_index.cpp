#include "models/end_skip_index.hpp"

#include <algorithm>
#include <limits>

namespace wavescope::gui {

EndSkipIndex::EndSkipIndex(std::span<const trace::timeline::TimelineEvent> events) {
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  block_max_.assign((events.size() + kBlock - 1) / kBlock, kMin);
  super_max_.assign((events.size() + kSuper - 1) / kSuper, kMin);
  for (std::size_t i = 0; i < events.size(); ++i) {
    block_max_[i / kBlock] = std::max(block_max_[i / kBlock], events[i].end);
    super_max_[i / kSuper] = std::max(super_max_[i / kSuper], events[i].end);
  }
}

std::size_t EndSkipIndex::first_ending_after(std::span<const trace::timeline::TimelineEvent> events,
                                             std::size_t from, std::size_t to,
                                             std::int64_t t) const {
  std::size_t i = from;
  while (i < to) {
    if (i % kSuper == 0 && i + kSuper <= to && super_max_[i / kSuper] <= t) {
      i += kSuper; // nothing in this superblock ends after t
      continue;
    }
    if (i % kBlock == 0 && i + kBlock <= to && block_max_[i / kBlock] <= t) {
      i += kBlock;
      continue;
    }
    if (events[i].end > t)
      return i;
    ++i;
  }
  return to;
}

} // namespace wavescope::gui
