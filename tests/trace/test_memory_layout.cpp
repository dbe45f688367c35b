// The memory graph's layout (memory_layout.hpp): stacked buffer bands on a synthetic track, and on
// every memory track of the real tinygrad profiles, where the bands must tile the live bytes and
// the peak must equal the most bytes alive at once, computed here from the buffers' lifetimes.

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "testdata.hpp"
#include "wavescope/trace/profile/memory_layout.hpp"
#include "wavescope/trace/profile/open_profile.hpp"

using namespace wavescope::trace::profile;

namespace {

Buffer buffer(std::uint64_t key, std::uint64_t elements, Picoseconds from, Picoseconds to) {
  Buffer b;
  b.key = key;
  b.dtype = "float";
  b.item_size = 4;
  b.elements = elements;
  b.allocated = from;
  b.freed = to;
  return b;
}

// The most bytes alive at once, straight from the lifetimes: at every allocation, the bytes of
// the buffers alive then ([allocated, freed)).
std::uint64_t max_live_bytes(const Track &track) {
  std::uint64_t best = 0;
  for (const Buffer &at : track.buffers) {
    std::uint64_t sum = 0;
    for (const Buffer &b : track.buffers)
      if (b.allocated <= at.allocated && at.allocated < b.freed) sum += b.bytes();
    best = std::max(best, sum);
  }
  return best;
}

// At every change time, the bands of the buffers alive tile [0, bytes alive) bottom to top in
// allocation order.
void check_tiling(const Track &track, const MemoryLayout &layout) {
  for (const LiveBytes &change : layout.live) {
    std::uint64_t top = 0;
    const auto alive = layout.alive_at(track, change.time);
    CHECK(alive.size() == change.buffers);
    for (const std::uint32_t i : alive) {
      CHECK(layout.bands[i].base_at(change.time) == top);
      top += track.buffers[i].bytes();
    }
    CHECK(top == change.bytes);
  }
}

}  // namespace

TEST_CASE("memory layout: bands stack in allocation order and drop when a lower buffer frees") {
  Track track;
  track.kind = TrackKind::Memory;
  track.buffers = {buffer(1, 10, 0, 100),    // 40 B, freed first
                   buffer(2, 20, 10, 300),   // 80 B
                   buffer(3, 5, 20, 200),    // 20 B
                   buffer(4, 1, 100, 150)};  // 4 B, allocated as 1 is freed
  const MemoryLayout layout = layout_memory(track);
  REQUIRE(layout.bands.size() == 4);
  CHECK(layout.bands[0].steps == std::vector<BandStep>{{0, 0}});
  // Buffer 2 sits on buffer 1 until it frees at 100, then on the floor.
  CHECK(layout.bands[1].steps == std::vector<BandStep>{{10, 40}, {100, 0}});
  CHECK(layout.bands[2].steps == std::vector<BandStep>{{20, 120}, {100, 80}});
  // Buffer 4 comes after buffer 1's free at the same instant: it sits on 2 and 3.
  CHECK(layout.bands[3].steps == std::vector<BandStep>{{100, 100}});
  CHECK(layout.peak == 140);
  CHECK(layout.peak_time == 20);
  CHECK(layout.peak_buffers == 3);
  CHECK(layout.max_buffers == 3);
  CHECK(layout.peak == max_live_bytes(track));
  check_tiling(track, layout);
  // Hit-testing: buffer 3's band at t=50 covers bytes [120, 140).
  CHECK(layout.buffer_at(track, 50, 125) == 2);
  CHECK(layout.buffer_at(track, 50, 20) == 0);
  CHECK(layout.buffer_at(track, 50, 140) == -1);
  CHECK(layout.buffer_at(track, 120, 10) == 1);
  CHECK(layout.buffer_at(track, 400, 0) == -1);
  CHECK(layout.live.back().bytes == 0);
}

TEST_CASE("memory layout: a buffer never alive has no band height and no effect on the peak") {
  Track track;
  track.buffers = {buffer(1, 4, 50, 50), buffer(2, 2, 0, 60)};
  const MemoryLayout layout = layout_memory(track);
  CHECK(layout.peak == 8);
  CHECK(layout.bands[1].steps == std::vector<BandStep>{{0, 0}});
  CHECK(layout.buffer_at(track, 50, 1) == 1);
}

TEST_CASE("memory layout: the real tinygrad profiles, peaks against the buffers' lifetimes") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  // file, memory track, buffers, bytes at the peak, buffers alive at the peak, most alive at once
  // (counted from the pickles' alloc/free point events).
  struct Expect {
    const char *file, *track;
    std::size_t buffers;
    std::uint64_t peak;
    std::uint32_t peak_buffers, max_buffers;
  };
  const Expect expected[] = {
      {"softmax/profile.pkl", "CPU Memory", 8, 33312, 7, 7},
      {"softmax/profile.pkl", "PYTHON Memory", 3, 16384, 1, 2},
      {"matmul_relu_sum/profile.pkl", "CPU Memory", 9, 33312, 8, 8},
      {"matmul_relu_sum/profile.pkl", "PYTHON Memory", 3, 256, 1, 2},
      {"elementwise/profile.pkl", "CPU Memory", 7, 8224, 6, 6},
      {"elementwise/profile.pkl", "PYTHON Memory", 3, 4096, 1, 2},
      {"amd-sqtt/gfx1100_gemm.pkl", "AMD Memory", 3, 12288, 3, 3},
      {"amd-sqtt/gfx1100_plus.pkl", "AMD Memory", 3, 36, 3, 3},
      {"amd-sqtt/gfx1100_plus.pkl", "PYTHON Memory", 2, 24, 2, 2},
      {"amd-sqtt/gfx1100_sync.pkl", "AMD Memory", 2, 1024, 2, 2},
      {"amd-sqtt/gfx1200_handwritten.pkl", "AMD Memory", 1, 4096, 1, 1},
      {"amd-sqtt/gfx950_gemm.pkl", "AMD Memory", 3, 12288, 3, 3},
  };
  std::size_t checked = 0;
  std::set<std::string> files;
  for (const Expect &e : expected) {
    INFO(e.file << " " << e.track);
    const Profile p = open_profile(root / e.file);
    const Track *track = p.track(e.track);
    REQUIRE(track);
    REQUIRE(track->kind == TrackKind::Memory);
    CHECK(track->buffers.size() == e.buffers);
    const MemoryLayout layout = layout_memory(*track);
    CHECK(layout.bands.size() == e.buffers);
    CHECK(layout.peak == e.peak);
    CHECK(layout.peak == max_live_bytes(*track));
    CHECK(static_cast<double>(layout.peak) == track->peak);  // the builder's running total
    CHECK(layout.peak_buffers == e.peak_buffers);
    CHECK(layout.max_buffers == e.max_buffers);
    check_tiling(*track, layout);
    // Every band starts at its allocation and every buffer is hit inside its own band.
    for (std::uint32_t i = 0; i < track->buffers.size(); ++i) {
      const Buffer &b = track->buffers[i];
      REQUIRE(!layout.bands[i].steps.empty());
      CHECK(layout.bands[i].steps.front().time == b.allocated);
      if (b.freed > b.allocated && b.bytes() > 0) {
        const auto base = layout.bands[i].base_at(b.allocated);
        CHECK(layout.buffer_at(*track, b.allocated, static_cast<double>(base)) ==
              static_cast<int>(i));
      }
    }
    // The kernels that used the buffers are the profile's executions.
    for (const Buffer &b : track->buffers) {
      const auto spans = spans_of_users(p, b);
      REQUIRE(spans.size() == b.users.size());
      for (std::size_t u = 0; u < b.users.size(); ++u) {
        CHECK(execution_of(p, b.users[u].exec) >= 0);
        if (spans[u].track < 0) continue;
        const Span &s = p.tracks[static_cast<std::size_t>(spans[u].track)]
                            .spans[static_cast<std::size_t>(spans[u].span)];
        CHECK(p.details(s)->exec == b.users[u].exec);
      }
    }
    files.insert(e.file);
    ++checked;
  }
  CHECK(checked == 12);
  CHECK(files.size() == 8);
}

TEST_CASE("memory layout: a GPU profile's buffer users resolve to the kernel spans they ran as") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  const Profile p = open_profile(file);
  const Track *memory = p.track("AMD Memory");
  REQUIRE(memory);
  std::size_t resolved = 0, users = 0;
  for (const Buffer &b : memory->buffers) {
    const auto spans = spans_of_users(p, b);
    for (std::size_t u = 0; u < spans.size(); ++u, ++users) {
      if (spans[u].track < 0) continue;
      CHECK(p.tracks[static_cast<std::size_t>(spans[u].track)].name == "AMD");
      ++resolved;
    }
  }
  CHECK(users > 0);
  CHECK(resolved == users);
}

TEST_CASE("memory layout: a run's buffers are the buffers that list it as a user, by argument") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/softmax/profile.pkl");
  const Profile p = open_profile(file);
  std::size_t runs = 0, with_buffers = 0;
  for (const Execution &x : p.executions) {
    ++runs;
    const auto used = buffers_of_run(p, x.run);
    if (!used.empty()) ++with_buffers;
    for (std::size_t i = 0; i < used.size(); ++i) {
      const Buffer &b = p.tracks[static_cast<std::size_t>(used[i].track)]
                            .buffers[static_cast<std::size_t>(used[i].buffer)];
      REQUIRE(used[i].argument < x.buffers.size());
      CHECK(x.buffers[used[i].argument] == b.key);
      CHECK(x.modes[used[i].argument] == used[i].mode);
      if (i) CHECK(used[i - 1].argument <= used[i].argument);
    }
  }
  CHECK(runs == 9);  // 8 exec events on CPU, 1 on PYTHON
  CHECK(with_buffers > 0);
}
