#pragma once
// Skipping over a row of timeline events sorted by start: "the first event at or after index i
// that ends after time t" in a few dozen steps whatever the row's length, so a view can jump over
// everything that falls inside one pixel column. Ends are not sorted (a long barrier or exec event
// may outlast its successors), so the index keeps the largest end per block of 8 events, per 64,
// per 512 and so on; a block whose largest end is by t is skipped whole.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "wavescope/trace/timeline/timeline_model.hpp"

namespace wavescope::trace::timeline {

class EndSkipIndex {
public:
  static constexpr std::size_t kLevels = 5;  // blocks of 8, 64, 512, 4096, 32768 events
  static constexpr std::size_t kShift = 3;

  EndSkipIndex() = default;
  explicit EndSkipIndex(std::span<const TimelineEvent> events);

  // The first index in [from, to) whose event ends after `t`, or `to` if none does.
  std::size_t first_ending_after(std::span<const TimelineEvent> events, std::size_t from,
                                 std::size_t to, std::int64_t t) const;

private:
  std::array<std::vector<std::int64_t>, kLevels> max_end_;  // per level, per block
};

}  // namespace wavescope::trace::timeline
