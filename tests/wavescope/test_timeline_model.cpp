// The wave timeline's building blocks: the clock estimate and the wall-time axis, the skip index
// that lets a frame jump over sub-pixel events, and the model's navigation queries on real data.

#include <catch2/catch.hpp>

#include <random>

#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "models/wave_timeline_model.hpp"
#include "testdata.hpp"
#include "views/timeline_axis.hpp"
#include "wavescope/trace/timeline/clock_estimate.hpp"
#include "wavescope/trace/timeline/end_skip_index.hpp"

using namespace wavescope::gui;
using wavescope::trace::timeline::ClockEstimate;
using wavescope::trace::timeline::ClockPoint;
using wavescope::trace::timeline::EndSkipIndex;
using wavescope::trace::timeline::EventCategory;
using wavescope::trace::timeline::TimelineEvent;

TEST_CASE("a constant 2 GHz clock puts 2 µs at 4000 cycles after the first instruction") {
  const ClockEstimate clock({{1000, 2'000'000'000}, {9000, 2'000'000'000}, {20000, 2'000'000'000}});
  const double origin = 5000;
  CHECK(clock.ns_at(origin + 4000) - clock.ns_at(origin) == Approx(2000));
  CHECK(clock.mean_hz() == Approx(2e9));
  const auto ticks = wall_ticks(clock, origin, origin + 10000, origin, 0, 1000, 100);
  const auto two = std::find_if(ticks.begin(), ticks.end(), [](const AxisTick &t) {
    return t.label == QStringLiteral("2 µs");
  });
  REQUIRE(two != ticks.end());
  CHECK(two->x == Approx(400.0));  // 4000 of 10000 cycles over 1000 px
  CHECK(ticks.front().label == QStringLiteral("0"));
}

TEST_CASE("the clock estimate integrates piecewise and inverts") {
  // 1 GHz up to cycle 1000 (and before it), then 2 GHz up to 3000, then 2 GHz assumed after.
  const ClockEstimate clock({{1000, 1'000'000'000}, {3000, 2'000'000'000}, {2500, 0}});
  REQUIRE(clock.size() == 2);  // out-of-order and zero-frequency points are dropped
  CHECK(clock.ns_at(0) == Approx(0));
  CHECK(clock.ns_at(1000) == Approx(1000));
  CHECK(clock.ns_at(2000) == Approx(1500));
  CHECK(clock.ns_at(3000) == Approx(2000));
  CHECK(clock.ns_at(5000) == Approx(3000));
  CHECK(clock.ns_at(-1000) == Approx(-1000));
  for (const double c : {-500.0, 0.0, 700.0, 1000.0, 2222.0, 3000.0, 7777.0})
    CHECK(clock.cycle_at_ns(clock.ns_at(c)) == Approx(c));
  CHECK(clock.hz_at(500) == Approx(1e9));
  CHECK(clock.hz_at(2500) == Approx(2e9));
  CHECK(clock.hz_at(9000) == Approx(2e9));
  // Cycles over time between the first and last point.
  CHECK(clock.mean_hz() == Approx(2e9));
  const auto smooth = clock.smoothed(4);
  REQUIRE(smooth.size() == 1);
  CHECK(smooth.front().second == Approx(2e9));
  CHECK(ClockEstimate().ns_at(1234) == 0);
}

TEST_CASE("axis steps are 1, 2 or 5 times a power of ten and labels carry their precision") {
  CHECK(nice_step(0.7) == Approx(1));
  CHECK(nice_step(1.2) == Approx(2));
  CHECK(nice_step(3) == Approx(5));
  CHECK(nice_step(7) == Approx(10));
  CHECK(nice_step(120) == Approx(200));
  CHECK(format_cycles(0, 500) == "0");
  CHECK(format_cycles(750, 50) == "750");
  CHECK(format_cycles(12500, 500) == "12.5K");
  CHECK(format_cycles(2000, 1000) == "2K");
  CHECK(format_cycles(1'200'000, 100'000) == "1.2M");
  CHECK(format_cycles(-3000, 1000) == "-3K");
  CHECK(format_ns(350, 50) == "350 ns");
  CHECK(format_ns(1250, 250) == "1.25 µs");
  CHECK(format_ns(2'000'000, 1'000'000) == "2 ms");
  const auto ticks = cycle_ticks(1000, 2000, 1000, 100, 1000, 100);
  REQUIRE(ticks.size() == 11);
  CHECK(ticks[1].label == "100");
  CHECK(ticks[1].x == Approx(200));
}

TEST_CASE("the skip index finds the first event ending after a time, as a scan would") {
  std::mt19937 random(7);
  std::vector<TimelineEvent> events(20000);
  std::int64_t t = 0;
  for (auto &e : events) {
    t += random() % 4;
    e.start = t;
    // Mostly one cycle, sometimes a long barrier-like wait that outlasts its successors.
    e.end = t + 1 + (random() % 50 == 0 ? static_cast<std::int64_t>(random() % 30000) : 0);
  }
  const EndSkipIndex index(events);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t from = random() % events.size();
    const std::size_t to = from + random() % (events.size() - from + 1);
    const std::int64_t after = static_cast<std::int64_t>(random() % static_cast<unsigned>(t + 10));
    std::size_t expected = from;
    while (expected < to && events[expected].end <= after) ++expected;
    CHECK(index.first_ending_after(events, from, to, after) == expected);
  }
}

TEST_CASE("dispatch and exec events link both ways, and barriers span the real wait") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  const auto doc = wavescope::testing::open_corpus_capture(dir);
  const auto *se = wavescope::testing::engine_of_blob(*doc, "k0_se1.bin");
  REQUIRE(se);
  WaveTimelineModel model;
  model.set_timeline(&se->timeline, &doc->dispatch(0)->code);
  std::size_t linked = 0, barriers = 0;
  for (int t = 0; t < model.rowCount(); ++t) {
    const auto &track = model.track(t);
    if (track.row < 0) continue;
    const auto &events = se->timeline.rows[static_cast<std::size_t>(track.row)].events;
    for (std::size_t i = 0; i < events.size(); ++i) {
      const TimelineEventRef ref{t, 0, i};
      const auto partner = model.partner(ref);
      if (partner.valid()) {
        CHECK(model.partner(partner) == ref);
        // A dispatch on a wave row, executed on an exec row.
        CHECK(model.track(partner.track).kind != track.kind);
        ++linked;
      }
      if (events[i].category == EventCategory::Barrier) {
        CHECK(events[i].end - events[i].start > 1);
        ++barriers;
      }
    }
  }
  CHECK(linked == 2 * 26);  // each of the 26 exec events with its dispatch
  CHECK(barriers == 2);
}

TEST_CASE("the model walks a row, finds a PC's events and maps events to their wave") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/handwritten");
  const auto doc = wavescope::testing::open_corpus_capture(dir);
  const auto *se = wavescope::testing::engine_of_blob(*doc, "se1.bin");
  REQUIRE(se);
  WaveTimelineModel model;
  model.set_timeline(&se->timeline, &doc->dispatch(0)->code);
  const int row = se->timeline.wave_row(0);
  REQUIRE(row >= 0);
  const int track = model.track_of_row(row);
  const TimelineEventRef first{track, 0, 0};
  const auto second = model.neighbour(first, 1);
  REQUIRE(second.valid());
  CHECK(model.start_of(second) >= model.start_of(first));
  CHECK(model.neighbour(second, -1) == first);
  CHECK_FALSE(model.neighbour(first, -1).valid());

  const auto *e = model.event(first);
  REQUIRE(e->has_pc);
  CHECK(!model.instruction_text(e->pc).isEmpty());
  const auto refs = model.events_with_pc(e->pc);
  CHECK(refs.size() >= 2);  // both waves ran it
  for (const auto &r : refs) CHECK(model.event(r)->pc == e->pc);
  CHECK(model.first_with_pc(e->pc, 0) == refs.front());
  const int wave = model.wave_of_event(first);
  REQUIRE(wave >= 0);
  CHECK(model.first_event_of_wave(wave) == first);
  // Hit test: the event under its own middle.
  const double middle = (model.start_of(second) + model.end_of(second)) / 2.0;
  CHECK(model.event_at(track, 0, middle, 0.5) == second);
}
