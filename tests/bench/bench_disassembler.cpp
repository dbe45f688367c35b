// Disassembly throughput over the corpus kernels, against copying the same bytes (the baseline
// every run measures for itself). MB/s figures are bytes over this thread's CPU time (the
// machine is shared: wall time would measure the neighbours).
//
//  * BM_Baseline_CopyText: memcpy of every corpus kernel's .text; MB/s.
//  * BM_Disassemble: LLVM MC disassembly of the same bytes; MB/s, instructions/s, copy_MB/s (the
//    baseline, measured once per run: best of 10 passes of >= 16 MB) and x_copy, the ratio.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <ctime>

#include "testdata.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::compiler::isa;

namespace {

struct Text {
  GpuTarget target;
  std::vector<std::uint8_t> bytes;
  std::uint64_t address;
};

const std::vector<Text> &corpus_texts() {
  static const std::vector<Text> texts = [] {
    std::vector<Text> out;
    for (const auto &p : wavescope::testing::corpus_programs()) {
      const auto code = CodeObject::load(p.elf, {p.target, p.name});
      out.push_back({code.target(),
                     {code.text_bytes().begin(), code.text_bytes().end()},
                     code.text().address});
    }
    return out;
  }();
  return texts;
}

// This thread's CPU time.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Copies every corpus text once into `sink`; returns the bytes copied.
std::size_t copy_texts(std::vector<std::uint8_t> &sink) {
  std::size_t bytes = 0;
  for (const auto &t : corpus_texts()) {
    std::memcpy(sink.data(), t.bytes.data(), t.bytes.size());
    benchmark::DoNotOptimize(sink.data());
    benchmark::ClobberMemory();
    bytes += t.bytes.size();
  }
  return bytes;
}

std::vector<std::uint8_t> make_sink() {
  std::size_t largest = 0;
  for (const auto &t : corpus_texts()) largest = std::max(largest, t.bytes.size());
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
        const std::size_t pass = copy_texts(sink);
        if (pass == 0) return 0.0;
        bytes += pass;
      }
      best = std::max(best, double(bytes) / (cpu_seconds() - t0));
    }
    return best;
  }();
  return rate;
}

void BM_Baseline_CopyText(benchmark::State &state) {
  if (corpus_texts().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  auto sink = make_sink();
  std::size_t bytes = 0;
  // One clock read around the whole loop: a pass takes about as long as two reads.
  const double t0 = cpu_seconds();
  for (auto _ : state) bytes += copy_texts(sink);
  const double seconds = cpu_seconds() - t0;
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["MB/s"] = double(bytes) / seconds / 1e6;
}
BENCHMARK(BM_Baseline_CopyText);

void BM_Disassemble(benchmark::State &state) {
  if (corpus_texts().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  std::vector<Disassembler> disassemblers;
  for (const auto &t : corpus_texts()) disassemblers.emplace_back(t.target);
  std::size_t instructions = 0, bytes = 0;
  double seconds = 0;
  for (auto _ : state) {
    const double t0 = cpu_seconds();
    for (std::size_t i = 0; i < corpus_texts().size(); ++i) {
      const auto &t = corpus_texts()[i];
      const auto insts = disassemblers[i].disassemble(t.bytes, t.address);
      instructions += insts.size();
      bytes += t.bytes.size();
    }
    seconds += cpu_seconds() - t0;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  const double rate = double(bytes) / seconds;
  state.counters["MB/s"] = rate / 1e6;
  state.counters["instructions/s"] = double(instructions) / seconds;
  state.counters["copy_MB/s"] = copy_bytes_per_second() / 1e6;
  state.counters["x_copy"] = rate / copy_bytes_per_second();
}
BENCHMARK(BM_Disassemble);

}  // namespace

BENCHMARK_MAIN();
