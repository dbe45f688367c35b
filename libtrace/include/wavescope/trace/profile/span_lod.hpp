#pragma once
// Level of detail for drawing a profile's spans: a track's spans split by stacking level, and
// the runs to draw on one level over a time window when a pixel covers `min_width` picoseconds.
// Spans at least a pixel wide are drawn one by one; narrower spans merge into runs of about a
// pixel, found by binary search, so a frame costs O(pixels x levels x log spans) however many
// spans a track holds.

#include <cstdint>
#include <vector>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// A track's span indices per level. Within a level spans never overlap (first-fit stacking), so
// they are ordered by start and by end alike.
struct TrackLevels {
  std::vector<std::vector<std::uint32_t>> levels;
  std::size_t span_count() const;
};
TrackLevels levels_of(const Track &track);

// What to draw: one span (count == 1, `first` is its index into Track::spans) or `count`
// consecutive spans of the level, starting at level position `position`, merged into one bar.
struct LodRun {
  Picoseconds start = 0, end = 0;
  std::uint32_t first = 0;     // span index of the run's first span
  std::uint32_t position = 0;  // its position in the level
  std::uint32_t count = 1;
};

// Appends to `out` the runs of `level` that overlap [t0, t1); returns how many were appended.
// Spans at least `min_width` long are single runs; narrower neighbours starting within
// `min_width` of a run's start merge with it. min_width <= 0 gives every span its own run.
std::size_t visible_runs(const Track &track, const std::vector<std::uint32_t> &level,
                         Picoseconds t0, Picoseconds t1, Picoseconds min_width,
                         std::vector<LodRun> &out);

// The level positions [first, last) of the spans overlapping [t0, t1).
std::pair<std::size_t, std::size_t> overlapping(const Track &track,
                                                const std::vector<std::uint32_t> &level,
                                                Picoseconds t0, Picoseconds t1);

}  // namespace wavescope::trace::profile
