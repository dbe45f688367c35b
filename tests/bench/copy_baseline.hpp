#pragma once
// The copy baseline of a benchmark over byte inputs: memcpy of every input into one sink, the
// cheapest thing a reader of those bytes can do. `x_copy` = a reader's MB/s over this one's.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu_time.hpp"

namespace wavescope::bench {

// `Inputs` is a range of items with a `bytes` vector (a benchmark's corpus).
template <typename Inputs> class CopyBaseline {
public:
  explicit CopyBaseline(const Inputs &inputs) : inputs_(inputs) {
    std::size_t largest = 0;
    for (const auto &input : inputs_) largest = std::max(largest, input.bytes.size());
    sink_.assign(largest, 1);
  }

  // Copies every input once; returns the bytes copied.
  std::size_t copy_once() {
    std::size_t bytes = 0;
    for (const auto &input : inputs_) {
      std::memcpy(sink_.data(), input.bytes.data(), input.bytes.size());
      benchmark::DoNotOptimize(sink_.data());
      benchmark::ClobberMemory();
      bytes += input.bytes.size();
    }
    return bytes;
  }

  // Bytes per CPU second, best of 10 runs of at least 16 MB; 0 without inputs.
  double bytes_per_second() {
    double best = 0;
    for (int trial = 0; trial < 10; ++trial) {
      std::size_t bytes = 0;
      const double t0 = thread_cpu_seconds();
      while (bytes < (std::size_t{16} << 20)) {
        const std::size_t pass = copy_once();
        if (pass == 0) return 0.0;
        bytes += pass;
      }
      best = std::max(best, double(bytes) / (thread_cpu_seconds() - t0));
    }
    return best;
  }

  // The baseline as a benchmark row: MB/s with one clock read around the whole loop (a pass
  // takes about as long as two reads).
  void run(benchmark::State &state) {
    std::size_t bytes = 0;
    const double t0 = thread_cpu_seconds();
    for (auto _ : state) bytes += copy_once();
    const double seconds = thread_cpu_seconds() - t0;
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
    state.counters["MB/s"] = double(bytes) / seconds / 1e6;
  }

private:
  const Inputs &inputs_;
  std::vector<std::uint8_t> sink_;
};

}  // namespace wavescope::bench
