#pragma once
// The memory graph of one memory track (viz.md §2.7): every buffer a band from its allocation to
// its free, stacked on the bytes of the buffers allocated before it that are still alive, so the
// top of the stack is the bytes alive. When a lower buffer is freed, the bands above it drop by
// its size. The app draws the bands; hit-testing and the peak come from here.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// From `time` on (until the next step or the buffer's free), the band's bottom is `base` bytes.
struct BandStep {
  Picoseconds time = 0;
  std::uint64_t base = 0;
  bool operator==(const BandStep &) const = default;
};

struct BufferBand {
  std::uint32_t buffer = 0;     // index into Track::buffers
  std::vector<BandStep> steps;  // by time; the first at the buffer's allocation
  // The band's bottom at `time` (its allocation's base before it, its last base after it).
  std::uint64_t base_at(Picoseconds time) const;
};

// The bytes alive from `time` on (until the next change).
struct LiveBytes {
  Picoseconds time = 0;
  std::uint64_t bytes = 0;
  std::uint32_t buffers = 0;  // buffers alive
};

struct MemoryLayout {
  std::vector<BufferBand> bands;   // one per buffer, in Track::buffers' order (allocation order)
  std::vector<LiveBytes> live;     // the top of the stack: one entry per distinct change time
  std::uint64_t peak = 0;          // the most bytes alive at once
  Picoseconds peak_time = 0;       // when the peak was first reached
  std::uint32_t peak_buffers = 0;  // buffers alive at the peak
  std::uint32_t max_buffers = 0;   // the most buffers alive at once

  // The buffer (index into Track::buffers) whose band covers `bytes` at `time`, or -1.
  int buffer_at(const Track &track, Picoseconds time, double bytes) const;
  // The buffers alive at `time`, bottom to top.
  std::vector<std::uint32_t> alive_at(const Track &track, Picoseconds time) const;
};

// Lays out a memory track's buffers. Events at the same time apply frees before allocations
// (a buffer freed and another allocated in the same microsecond are not both alive).
MemoryLayout layout_memory(const Track &track);

// The spans a buffer's users ran as: per user of `buffer` (Track::buffers index), the device span
// its exec bound (SpanDetails::exec == the run), as (track index, span index) into `profile`;
// {-1, -1} when the device recorded no span for that run (e.g. tinygrad's CPU device).
struct SpanIndex {
  int track = -1, span = -1;
  bool operator==(const SpanIndex &) const = default;
};
std::vector<SpanIndex> spans_of_users(const Profile &profile, const Buffer &buffer);
// The execution (index into Profile::executions) of a run id, or -1.
int execution_of(const Profile &profile, std::uint64_t run);

// The buffers a run used, by argument: the buffers of every memory track that list the run among
// their users (viz.md §2.6: a kernel's "read@data0 4.1KB" lines).
struct RunBuffer {
  int track = -1;   // index into Profile::tracks (a memory track)
  int buffer = -1;  // index into its buffers
  unsigned argument = 0;
  AccessMode mode = AccessMode::Read;
};
std::vector<RunBuffer> buffers_of_run(const Profile &profile, std::uint64_t run);

}  // namespace wavescope::trace::profile
