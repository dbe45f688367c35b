// The register database: parsing a table on first use, resolving a UMR-style name, and searching
// every table. Each figure is also given as a ratio against a baseline measured in the same run: a
// std::unordered_map<std::string, int> lookup (resolve), a plain substring scan over the same names
// (search), and zlib's inflation of the table (parse).
//
// Counters: registers (per iteration), vs_baseline (time / the baseline's time).

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <unordered_map>
#include <vector>

#include "wavescope/hw/regs/register_map.hpp"
#include "wavescope/hw/regs/register_table.hpp"

using namespace wavescope::hw::regs;

namespace {

template <typename F> double seconds_per_call(F &&f, int calls) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / calls;
}

void BM_parse_gc_11_0_0(benchmark::State &state) {
  const auto text = register_table_text("gc_11_0_0");
  const double inflate =
      seconds_per_call([] { benchmark::DoNotOptimize(register_table_text("gc_11_0_0")); }, 20);
  double total = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    RegisterTable t("gc_11_0_0", text);
    benchmark::DoNotOptimize(t.registers().data());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["registers"] = 5493;
  state.counters["vs_baseline"] = total / state.iterations() / inflate;
}

void BM_resolve(benchmark::State &state) {
  const auto map = RegisterMap::for_asic("navi31");
  std::unordered_map<std::string, int> baseline;
  for (const auto &r : map.block("gc")->table->registers()) baseline.emplace(r.name, 0);
  const std::string key = "regGRBM_STATUS";
  const double base =
      seconds_per_call([&] { benchmark::DoNotOptimize(baseline.find(key)); }, 100000);
  double total = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(resolve_register(map, "gc.GRBM_STATUS.GUI_ACTIVE"));
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["vs_baseline"] = total / state.iterations() / base;
}

void BM_find_all_tables(benchmark::State &state) {
  const auto map = RegisterMap::all_tables();
  std::vector<std::string> names;
  for (const auto &b : map.blocks())
    for (const auto &r : b.table->registers()) names.emplace_back(r.name);
  const double base = seconds_per_call(
      [&] {
        std::size_t n = 0;
        for (const auto &s : names) n += s.find("CP_HQD_") != std::string::npos;
        benchmark::DoNotOptimize(n);
      },
      20);
  double total = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(find_registers(map, "*CP_HQD_*"));
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["registers"] = static_cast<double>(names.size());
  state.counters["vs_baseline"] = total / state.iterations() / base;
}

}  // namespace

BENCHMARK(BM_parse_gc_11_0_0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_resolve)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_find_all_tables)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
