// Drawing the wave timeline offscreen: the busiest SE timeline of the corpus repeated end to end
// until it holds at least 10 million bars, painted into a 1600x1000 QImage at fit-all zoom (every
// event in view, merged per pixel column) and zoomed into a window of about 5000 cycles. The goal
// is a frame under 16 ms. The baseline, measured in the same run, fills the same image once: the
// counters report each frame in milliseconds of wall and of thread CPU time (the build machine is
// shared, so wall time includes waiting for a core) and as a multiple of that fill's CPU time.

#include <benchmark/benchmark.h>

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <memory>

#include "app/capture_document.hpp"
#include "app/theme.hpp"
#include "models/wave_timeline_model.hpp"
#include "testdata.hpp"
#include "views/wave_timeline_painter.hpp"

using namespace wavescope::gui;
using namespace wavescope::trace::timeline;

namespace {

constexpr std::size_t kMinBars = 10'000'000;
const QSize kFrame(1600, 1000);

std::size_t bars_of(const SeTimeline &tl) {
  std::size_t n = tl.waves.size();
  for (const auto &row : tl.rows) n += row.events.size();
  return n;
}

// `source` copied `copies` times, each copy shifted by the source's span (links, waves and clock
// points included), as one long trace of the same SE.
SeTimeline repeat(const SeTimeline &source, std::size_t copies) {
  SeTimeline out;
  out.se = source.se;
  out.blob = source.blob;
  const std::int64_t period = source.end - source.begin + 64;
  out.rows.resize(source.rows.size());
  for (std::size_t r = 0; r < source.rows.size(); ++r) {
    const auto &from = source.rows[r];
    auto &to = out.rows[r];
    to.kind = from.kind;
    to.name = from.name;
    to.slot = from.slot;
    to.max_duration = from.max_duration;
    to.events.reserve(from.events.size() * copies);
  }
  for (std::size_t c = 0; c < copies; ++c) {
    const std::int64_t shift = static_cast<std::int64_t>(c) * period;
    for (std::size_t r = 0; r < source.rows.size(); ++r)
      for (auto e : source.rows[r].events) {
        e.start += shift;
        e.end += shift;
        if (e.link_row >= 0)
          e.link_index += static_cast<std::uint32_t>(
              c * source.rows[static_cast<std::size_t>(e.link_row)].events.size());
        out.rows[r].events.push_back(e);
      }
    for (auto w : source.waves) {
      w.start += shift;
      w.end += shift;
      out.waves.push_back(w);
    }
    for (auto p : source.clock) {
      p.time += shift;
      out.clock.push_back(p);
    }
  }
  out.begin = source.begin;
  out.end = source.end + static_cast<std::int64_t>(copies - 1) * period;
  return out;
}

struct Scene {
  std::shared_ptr<CaptureDocument> document;
  std::string name;
  SeTimeline timeline;
  WaveTimelineModel model;
  std::unique_ptr<WaveTimelinePainter> painter;
};

// The busiest SE of the corpus, repeated to kMinBars.
Scene &scene() {
  static Scene *s = [] {
    auto *out = new Scene;
    const SeTimeline *best = nullptr;
    for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
      auto doc = load_capture(QString::fromStdString(dir.string()));
      for (const auto &d : doc->dispatches)
        for (const auto &se : d.engines)
          if (!best || bars_of(se.timeline) > bars_of(*best)) {
            best = &se.timeline;
            out->document = doc;
            out->name = dir.parent_path().filename().string() + "/" + dir.filename().string() +
                        " " + se.timeline.blob;
          }
    }
    if (!best) {
      std::fprintf(stderr, "error: the SQTT corpus is missing (set WAVESCOPE_TESTDATA)\n");
      std::exit(1);
    }
    const std::size_t copies = (kMinBars + bars_of(*best) - 1) / bars_of(*best);
    out->timeline = repeat(*best, copies);
    out->model.set_timeline(&out->timeline);
    out->painter = std::make_unique<WaveTimelinePainter>(out->model);
    std::fprintf(stderr, "%s: %zu bars per copy x %zu = %zu bars, %zu tracks\n", out->name.c_str(),
                 bars_of(*best), copies, out->model.bar_count(), out->model.tracks().size());
    return out;
  }();
  return *s;
}

// CPU time of this thread in milliseconds.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// The baseline: one fill of the frame, in thread CPU time over many repetitions.
double fill_cpu_ms() {
  static const double ms = [] {
    QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
    constexpr int kRepeats = 500;
    const double start = thread_cpu_ms();
    for (int i = 0; i < kRepeats; ++i) {
      image.fill(theme::canvas());
      benchmark::DoNotOptimize(image.constBits());
    }
    return (thread_cpu_ms() - start) / kRepeats;
  }();
  return ms;
}

void paint_frames(benchmark::State &state, double t0, double t1) {
  Scene &s = scene();
  QImage image(kFrame, QImage::Format_ARGB32_Premultiplied);
  TimelineFrame frame;
  frame.size = kFrame;
  frame.t0 = t0;
  frame.t1 = t1;
  TimelinePaintStats stats;
  double wall_ms = 0, cpu_ms = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_ms();
    QPainter painter(&image);
    stats = s.painter->paint(painter, frame);
    painter.end();
    cpu_ms += thread_cpu_ms() - cpu_start;
    wall_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(image.constBits());
  }
  const double frames = static_cast<double>(state.iterations());
  state.counters["bars_total"] = static_cast<double>(s.model.bar_count());
  state.counters["items_drawn"] = static_cast<double>(stats.items());
  state.counters["ms_per_frame"] = wall_ms / frames;
  state.counters["cpu_ms_per_frame"] = cpu_ms / frames;
  state.counters["x_fill"] = cpu_ms / frames / fill_cpu_ms();
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

void BM_TimelineFitAll(benchmark::State &state) {
  const auto [lo, hi] = scene().model.fit_range();
  paint_frames(state, static_cast<double>(lo), static_cast<double>(hi));
}
BENCHMARK(BM_TimelineFitAll)->Unit(benchmark::kMillisecond);

void BM_TimelineZoomed(benchmark::State &state) {
  const auto [lo, hi] = scene().model.fit_range();
  const double middle = (static_cast<double>(lo) + static_cast<double>(hi)) / 2;
  paint_frames(state, middle, middle + 5000);
}
BENCHMARK(BM_TimelineZoomed)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char **argv) {
  setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QGuiApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  scene();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
