// PMC sample decoding (slots, per-instance rows, sums, catalogue lookups, derived metrics) over
// every corpus sample buffer, against copying the same bytes: the baseline every run measures.

#include <benchmark/benchmark.h>

#include <cstring>
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

void BM_Baseline_CopyBuffers(benchmark::State &state) {
  std::vector<std::uint8_t> sink(1 << 16);
  std::size_t bytes = 0;
  for (auto _ : state)
    for (const auto &s : corpus_samples()) {
      std::memcpy(sink.data(), s.bytes.data(), s.bytes.size());
      benchmark::DoNotOptimize(sink.data());
      bytes += s.bytes.size();
    }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Baseline_CopyBuffers);

void BM_DecodeSamples(benchmark::State &state) {
  std::size_t bytes = 0, dispatches = 0;
  for (auto _ : state)
    for (const auto &s : corpus_samples()) {
      auto decoded = pmc::decode_samples(s.bytes, s.schedule, s.options);
      benchmark::DoNotOptimize(decoded.counters.data());
      bytes += s.bytes.size();
      ++dispatches;
    }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["dispatches/s"] =
      benchmark::Counter(static_cast<double>(dispatches), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeSamples);

}  // namespace

BENCHMARK_MAIN();
