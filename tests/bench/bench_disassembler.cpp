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

#include "copy_baseline.hpp"
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

// The copy baseline, measured once per run for x_copy.
double copy_bytes_per_second() {
  static const double rate = wavescope::bench::CopyBaseline(corpus_texts()).bytes_per_second();
  return rate;
}

void BM_Baseline_CopyText(benchmark::State &state) {
  if (corpus_texts().empty())
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  wavescope::bench::CopyBaseline(corpus_texts()).run(state);
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
    const double t0 = wavescope::bench::thread_cpu_seconds();
    for (std::size_t i = 0; i < corpus_texts().size(); ++i) {
      const auto &t = corpus_texts()[i];
      const auto insts = disassemblers[i].disassemble(t.bytes, t.address);
      instructions += insts.size();
      bytes += t.bytes.size();
    }
    seconds += wavescope::bench::thread_cpu_seconds() - t0;
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
