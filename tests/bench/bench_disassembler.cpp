// Disassembly throughput over the corpus kernels, against reading the same bytes (the baseline
// every run measures for itself). Reported as instructions/s and bytes/s.

#include <benchmark/benchmark.h>

#include <cstring>

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

void BM_Baseline_CopyText(benchmark::State &state) {
  std::vector<std::uint8_t> sink(1 << 16);
  std::size_t bytes = 0;
  for (auto _ : state)
    for (const auto &t : corpus_texts()) {
      std::memcpy(sink.data(), t.bytes.data(), t.bytes.size());
      benchmark::DoNotOptimize(sink.data());
      bytes += t.bytes.size();
    }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Baseline_CopyText);

void BM_Disassemble(benchmark::State &state) {
  std::vector<Disassembler> disassemblers;
  for (const auto &t : corpus_texts()) disassemblers.emplace_back(t.target);
  std::size_t instructions = 0, bytes = 0;
  for (auto _ : state)
    for (std::size_t i = 0; i < corpus_texts().size(); ++i) {
      const auto &t = corpus_texts()[i];
      const auto insts = disassemblers[i].disassemble(t.bytes, t.address);
      instructions += insts.size();
      bytes += t.bytes.size();
    }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["instructions/s"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Disassemble);

}  // namespace

BENCHMARK_MAIN();
