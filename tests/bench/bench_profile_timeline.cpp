// Drawing the profile timeline offscreen: a synthetic profile of 10 million spans (four device
// queues of back-to-back kernels of 0.5-20 us, and a host track nested three deep), rendered by
// the app's ProfileTimelineWidget into a 1600x1000 image at fit-all zoom (every span in view, the
// sub-pixel ones merged per pixel by span_lod) and zoomed to a window of 200 us. The goal is a
// frame under 16 ms.
//
// Baselines, measured in the same run:
//  * the same widget with level of detail off (every visible span drawn on its own) at fit-all on
//    the first 1% of the profile, scaled by 100 to the whole (the naive loop is linear in spans);
//    `x_naive` is how many times faster the LOD frame is;
//  * one fill of the frame (`x_fill`: the frame's CPU time in fills).
// Counters report wall and thread-CPU milliseconds per frame (the machine is shared: wall time
// includes waiting for a core), spans drawn one by one, merged runs and spans covered.

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>

#include "app/theme.hpp"
#include "models/profile_track_model.hpp"
#include "views/profile_timeline_widget.hpp"

using namespace wavescope::gui;
namespace tp = wavescope::trace::profile;

namespace {

constexpr std::size_t kSpans = 10'000'000;
const QSize kFrame(1600, 1000);

std::uint64_t next(std::uint64_t &state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

// `spans` spans: 96% on four device queues, the rest on a host track nested three deep.
tp::Profile synthetic_profile(std::size_t spans) {
  tp::Profile p;
  p.format = "synthetic";
  for (int k = 0; k < 48; ++k) p.strings.push_back("kernel_" + std::to_string(k));
  p.strings.push_back("schedule");
  p.strings.push_back("lower");
  p.strings.push_back("rewrite");
  std::uint64_t rng = 0x9e3779b97f4a7c15ull;
  const std::size_t host = spans / 25, per_queue = (spans - host) / 4;
  tp::Picoseconds end = 0;
  for (int q = 0; q < 4; ++q) {
    tp::Track t;
    t.name = "AMD:" + std::to_string(q);
    t.device = t.name;
    t.levels = 1;
    t.spans.reserve(per_queue);
    tp::Picoseconds at = 0;
    for (std::size_t i = 0; i < per_queue; ++i) {
      const std::uint64_t r = next(rng);
      tp::Span s;
      s.start = at + static_cast<tp::Picoseconds>(r % 2'000'000);  // 0-2 us gap
      s.end = s.start + 500'000 + static_cast<tp::Picoseconds>((r >> 21) % 19'500'000);
      s.name = static_cast<tp::StringId>((r >> 45) % 48);
      t.spans.push_back(s);
      at = s.end;
    }
    end = std::max(end, at);
    p.tracks.push_back(std::move(t));
  }
  // Host: level 0 spans of ~1 ms, each holding level 1 spans, each holding level 2 spans.
  tp::Track h;
  h.name = "TINY";
  h.device = "TINY";
  h.levels = 3;
  const std::size_t outer = std::max<std::size_t>(1, host / 111);
  const tp::Picoseconds period = end / static_cast<tp::Picoseconds>(outer);
  for (std::size_t o = 0; o < outer; ++o) {
    tp::Span a;
    a.start = static_cast<tp::Picoseconds>(o) * period;
    a.end = a.start + period * 9 / 10;
    a.name = 48;
    h.spans.push_back(a);
    for (int m = 0; m < 10; ++m) {
      tp::Span b;
      b.start = a.start + (a.end - a.start) * m / 10;
      b.end = b.start + (a.end - a.start) / 12;
      b.name = 49;
      b.depth = 1;
      h.spans.push_back(b);
      for (int k = 0; k < 10; ++k) {
        tp::Span c;
        c.start = b.start + (b.end - b.start) * k / 10;
        c.end = c.start + (b.end - b.start) / 12;
        c.name = 50;
        c.depth = 2;
        h.spans.push_back(c);
      }
    }
  }
  // Spans are kept by start (the level lists rely on it within a level).
  std::stable_sort(h.spans.begin(), h.spans.end(),
                   [](const tp::Span &x, const tp::Span &y) { return x.start < y.start; });
  p.tracks.insert(p.tracks.begin(), std::move(h));
  p.duration = end;
  return p;
}

struct Scene {
  tp::Profile profile;
  ProfileTrackModel model;
  std::unique_ptr<ProfileTimelineWidget> widget;
  explicit Scene(std::size_t spans) : profile(synthetic_profile(spans)) {
    model.set_profile(&profile);
    widget = std::make_unique<ProfileTimelineWidget>(model);
    widget->resize(kFrame);
    widget->reset();
  }
};

Scene &full() {
  static Scene *s = [] {
    auto *out = new Scene(kSpans);
    std::fprintf(stderr, "synthetic profile: %zu spans on %zu tracks, %.1f s\n",
                 out->profile.span_count(), out->profile.tracks.size(),
                 tp::to_ms(out->profile.duration) / 1e3);
    return out;
  }();
  return *s;
}
Scene &one_percent() {
  static Scene *s = new Scene(kSpans / 100);
  return *s;
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double fill_cpu_ms() {
  static const double ms = [] {
    QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
    constexpr int kRepeats = 300;
    const double start = thread_cpu_ms();
    for (int i = 0; i < kRepeats; ++i) {
      image.fill(theme::canvas());
      benchmark::DoNotOptimize(image.constBits());
    }
    return (thread_cpu_ms() - start) / kRepeats;
  }();
  return ms;
}

struct Frame {
  double wall_ms = 0, cpu_ms = 0;
  std::size_t drawn = 0, merged = 0, covered = 0;
};

Frame render(ProfileTimelineWidget &w, QImage &image) {
  Frame f;
  const auto start = std::chrono::steady_clock::now();
  const double cpu = thread_cpu_ms();
  w.render(&image);
  f.cpu_ms = thread_cpu_ms() - cpu;
  f.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  f.drawn = w.last_drawn_spans();
  f.merged = w.last_merged_runs();
  f.covered = w.last_covered_spans();
  benchmark::DoNotOptimize(image.constBits());
  return f;
}

// The naive frame: every span of the 1% profile drawn on its own at fit-all, CPU ms x 100.
double naive_cpu_ms() {
  static const double ms = [] {
    Scene &s = one_percent();
    QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
    s.widget->set_level_of_detail(false);
    s.widget->fit_all();
    double best = 1e300;
    for (int i = 0; i < 3; ++i) best = std::min(best, render(*s.widget, image).cpu_ms);
    s.widget->set_level_of_detail(true);
    return best * 100;
  }();
  return ms;
}

void report(benchmark::State &state, const Frame &last, double wall, double cpu) {
  const double frames = static_cast<double>(state.iterations());
  state.counters["spans_total"] = static_cast<double>(full().profile.span_count());
  state.counters["spans_drawn"] = static_cast<double>(last.drawn);
  state.counters["runs_merged"] = static_cast<double>(last.merged);
  state.counters["spans_covered"] = static_cast<double>(last.covered);
  state.counters["ms_per_frame"] = wall / frames;
  state.counters["cpu_ms_per_frame"] = cpu / frames;
  state.counters["x_fill"] = cpu / frames / fill_cpu_ms();
  state.counters["x_naive"] = naive_cpu_ms() / (cpu / frames);
}

void frames(benchmark::State &state, double t0, double t1) {
  Scene &s = full();
  QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
  s.widget->set_window(t0, t1);
  Frame last;
  double wall = 0, cpu = 0;
  for (auto _ : state) {
    last = render(*s.widget, image);
    wall += last.wall_ms;
    cpu += last.cpu_ms;
  }
  report(state, last, wall, cpu);
}

void BM_Baseline_FillFrame(benchmark::State &state) {
  QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
  for (auto _ : state) {
    image.fill(theme::canvas());
    benchmark::DoNotOptimize(image.constBits());
  }
  state.counters["cpu_ms_per_frame"] = fill_cpu_ms();
}
BENCHMARK(BM_Baseline_FillFrame)->Unit(benchmark::kMillisecond);

void BM_Baseline_NoLodScaled(benchmark::State &state) {
  Scene &s = one_percent();
  QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
  s.widget->set_level_of_detail(false);
  s.widget->fit_all();
  Frame last;
  for (auto _ : state) last = render(*s.widget, image);
  s.widget->set_level_of_detail(true);
  state.counters["spans_drawn_1pct"] = static_cast<double>(last.drawn);
  state.counters["cpu_ms_per_frame_scaled"] = naive_cpu_ms();
}
BENCHMARK(BM_Baseline_NoLodScaled)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ProfileTimelineFitAll(benchmark::State &state) {
  const double d = static_cast<double>(full().profile.duration);
  frames(state, -d * 0.01, d * 1.01);
}
BENCHMARK(BM_ProfileTimelineFitAll)->Unit(benchmark::kMillisecond);

void BM_ProfileTimelineZoomed(benchmark::State &state) {
  const double middle = static_cast<double>(full().profile.duration) / 2;
  frames(state, middle, middle + 200e6);  // 200 us
}
BENCHMARK(BM_ProfileTimelineZoomed)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char **argv) {
  setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  full();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
