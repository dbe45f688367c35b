// PMC sample decoding (slots, per-instance rows, sums, catalogue lookups, derived metrics) over
// every corpus sample buffer, against copying the same bytes: the baseline every run measures.
// MB/s figures are bytes over this thread's CPU time (the machine is shared: wall time would
// measure the neighbours).
//
//  * BM_Baseline_CopyBuffers: memcpy of every corpus PMC sample buffer; MB/s.
//  * BM_DecodeSamples: decoding the same buffers; MB/s, dispatches/s, copy_MB/s (the baseline,
//    measured once per run: best of 10 passes of >= 16 MB) and x_copy, the ratio.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>

#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

using namespace wavescope::trace;

namespace {

struct Sample {
  std::vector<std::uint8_t> bytes;
  std::vector<PmcSampleSpec> schedule;
  pmc::DecodeOptions options;
};

const std::vector<Sample> &corpus_samples() {
  static const std::vector<Sample> samples = [] {
    std::vector<Sample> out;
    for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
      const auto capture = Capture::open(dir);
      for (const auto &event : capture.pmc) {
        Sample s{event.bytes.read_all(), event.schedule, {}};
        s.options.processor = capture.device.processor;
        s.options.used_bytes = event.used_bytes;
        out.push_back(std::move(s));
      }
    }
    return out;
  }();
  return samples;
}

// This thread's CPU time.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Copies every corpus sample buffer once into `sink`; returns the bytes copied.
std::size_t copy_buffers(std::vector<std::uint8_t> &sink) {
  std::size_t bytes = 0;
  for (const auto &s : corpus_samples()) {
    std::memcpy(sink.data(), s.bytes.data(), s.bytes.size());
    benchmark::DoNotOptimize(sink.data());
    benchmark::ClobberMemory();
    bytes += s.bytes.size();
  }
  return bytes;
}

std::vector<std::uint8_t> make_sink() {
  std::size_t largest = 0;
  for (const auto &s : corpus_samples()) largest = std::max(largest, s.bytes.size());
  return std::vector<std::uint8_t>(largest, 1);
}

// Copy throughput in CPU time, measured once per run: the baseline of x_copy.
double copy_bytes_per_second() {
  static const double rate = [] {
    auto sink = make_sink();
    double best = 0;
    for (int trial = 0; trial < 10; ++trial) {
      std::size_t bytes = 0;
      const double t0 = cpu_seconds();
      while (bytes < (std::size_t{16} << 20)) {
        const std::size_t pass = copy_buffers(sink);
        if (pass == 0) return 0.0;
        bytes += pass;
      }
      best = std::max(best, double(bytes) / (cpu_seconds() - t0));
    }
    return best;
  }();
  return rate;
}

void BM_Baseline_CopyBuffers(benchmark::State &state) {
  if (corpus_samples().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  auto sink = make_sink();
  std::size_t bytes = 0;
  // One clock read around the whole loop: a pass takes about as long as two reads.
  const double t0 = cpu_seconds();
  for (auto _ : state) bytes += copy_buffers(sink);
  const double seconds = cpu_seconds() - t0;
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["MB/s"] = double(bytes) / seconds / 1e6;
}
BENCHMARK(BM_Baseline_CopyBuffers);

void BM_DecodeSamples(benchmark::State &state) {
  if (corpus_samples().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  std::size_t bytes = 0, dispatches = 0;
  double seconds = 0;
  for (auto _ : state) {
    const double t0 = cpu_seconds();
    for (const auto &s : corpus_samples()) {
      auto decoded = pmc::decode_samples(s.bytes, s.schedule, s.options);
      benchmark::DoNotOptimize(decoded.counters.data());
      bytes += s.bytes.size();
      ++dispatches;
    }
    seconds += cpu_seconds() - t0;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  const double rate = double(bytes) / seconds;
  state.counters["MB/s"] = rate / 1e6;
  state.counters["dispatches/s"] = double(dispatches) / seconds;
  state.counters["copy_MB/s"] = copy_bytes_per_second() / 1e6;
  state.counters["x_copy"] = rate / copy_bytes_per_second();
}
BENCHMARK(BM_DecodeSamples);

}  // namespace

BENCHMARK_MAIN();
