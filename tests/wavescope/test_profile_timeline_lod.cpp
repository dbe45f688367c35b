// The profile timeline's level of detail, counted (never timed): a synthetic profile of 300,000
// spans drawn at fit-all covers every span with at most a few runs per pixel and level, drawn
// without LOD draws each span on its own, and zoomed in it draws exactly the spans in view.

#include <catch2/catch.hpp>

#include <QImage>

#include <cmath>
#include <cstdint>

#include "gui_test_app.hpp"
#include "models/profile_track_model.hpp"
#include "views/profile_timeline_widget.hpp"

using namespace wavescope::gui;
namespace tp = wavescope::trace::profile;

namespace {

// Two device queues of back-to-back spans of 0.5-20 us with gaps of up to 2 us.
tp::Profile queues(std::size_t per_queue) {
  tp::Profile p;
  for (int k = 0; k < 16; ++k) p.strings.push_back("kernel_" + std::to_string(k));
  std::uint64_t rng = 88172645463325252ull;
  for (int q = 0; q < 2; ++q) {
    tp::Track t;
    t.name = "AMD:" + std::to_string(q);
    t.device = t.name;
    t.levels = 1;
    tp::Picoseconds at = 0;
    for (std::size_t i = 0; i < per_queue; ++i) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      tp::Span s;
      s.start = at + static_cast<tp::Picoseconds>(rng % 2'000'000);
      s.end = s.start + 500'000 + static_cast<tp::Picoseconds>((rng >> 21) % 19'500'000);
      s.name = static_cast<tp::StringId>((rng >> 45) % 16);
      t.spans.push_back(s);
      at = s.end;
    }
    p.duration = std::max(p.duration, at);
    p.tracks.push_back(std::move(t));
  }
  return p;
}

std::size_t in_window(const tp::Profile &p, double t0, double t1) {
  std::size_t n = 0;
  for (const auto &t : p.tracks)
    for (const auto &s : t.spans)
      n += static_cast<double>(s.end) > t0 && static_cast<double>(s.start) < t1;
  return n;
}

}  // namespace

TEST_CASE("profile timeline LOD: fit-all covers every span in a few runs per pixel") {
  wavescope::testing::gui_app();
  const tp::Profile p = queues(150'000);
  ProfileTrackModel model;
  model.set_profile(&p);
  ProfileTimelineWidget w(model);
  w.resize(1600, 1000);
  w.reset();
  (void)w.grab();
  const std::size_t pixels = 1600 - ProfileTimelineWidget::kGutter;
  CHECK(w.last_covered_spans() == 300'000);
  CHECK(w.last_merged_runs() > 0);
  // Runs at least two pixels wide: at most one per pixel and track (a run and a wide span).
  CHECK(w.last_drawn_spans() + w.last_merged_runs() <= 2 * pixels);
  CHECK(w.last_drawn_spans() + w.last_merged_runs() >= pixels / 2);

  SECTION("without LOD every span is drawn on its own") {
    w.set_level_of_detail(false);
    (void)w.grab();
    CHECK(w.last_drawn_spans() == 300'000);
    CHECK(w.last_merged_runs() == 0);
    CHECK(w.last_covered_spans() == 300'000);
  }
  SECTION("zoomed to 200 us the spans in view are drawn one by one") {
    const double middle = static_cast<double>(p.duration) / 2;
    w.set_window(middle, middle + 200e6);
    (void)w.grab();
    const std::size_t expected =
        in_window(p, std::floor(w.window_start()), std::ceil(w.window_end()) + 1);
    CHECK(expected > 10);
    CHECK(w.last_covered_spans() == expected);
    CHECK(w.last_drawn_spans() == expected);  // every span is wider than a pixel here
    CHECK(w.last_merged_runs() == 0);
  }
}
