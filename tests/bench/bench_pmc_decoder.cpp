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

#include "copy_baseline.hpp"
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

// The copy baseline, measured once per run for x_copy.
double copy_bytes_per_second() {
  static const double rate = wavescope::bench::CopyBaseline(corpus_samples()).bytes_per_second();
  return rate;
}

void BM_Baseline_CopyBuffers(benchmark::State &state) {
  if (corpus_samples().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  wavescope::bench::CopyBaseline(corpus_samples()).run(state);
}
BENCHMARK(BM_Baseline_CopyBuffers);

void BM_DecodeSamples(benchmark::State &state) {
  if (corpus_samples().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  std::size_t bytes = 0, dispatches = 0;
  double seconds = 0;
  for (auto _ : state) {
    const double t0 = wavescope::bench::thread_cpu_seconds();
    for (const auto &s : corpus_samples()) {
      auto decoded = pmc::decode_samples(s.bytes, s.schedule, s.options);
      benchmark::DoNotOptimize(decoded.counters.data());
      bytes += s.bytes.size();
      ++dispatches;
    }
    seconds += wavescope::bench::thread_cpu_seconds() - t0;
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
