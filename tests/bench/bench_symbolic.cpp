// Simplifier throughput over the dev corpus (../shared/data/symbolic/dev.jsonl), against parsing
// and printing the same expressions (the baseline every run measures for itself).
//
// Counters: simplifications/s; per_case_us; cost_vs_parse_print = (parse+simplify+print time) /
// (parse+print time), both measured in the same loop. "cold" clears the div/mod memo before each
// pass over the cases, "warm" keeps it (repeated simplification of the same graphs).

#include <benchmark/benchmark.h>

#include <chrono>

#include "testdata.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;

namespace {

struct Prepared {
  SymbolicCase c;
  CaseGraph graph;  // its scope binds the variables
};

const std::vector<Prepared> &dev_cases() {
  static const std::vector<Prepared> cases = [] {
    std::vector<Prepared> out;
    const auto path = wavescope::testing::testdata_root() / "symbolic" / "dev.jsonl";
    for (auto &c : load_cases(path)) {
      CaseGraph g = build_case(c);
      out.push_back({std::move(c), std::move(g)});
    }
    return out;
  }();
  return cases;
}

using Clock = std::chrono::steady_clock;

void BM_Baseline_ParsePrint(benchmark::State &state) {
  std::size_t n = 0;
  for (auto _ : state)
    for (const auto &p : dev_cases()) {
      benchmark::DoNotOptimize(render_expression(parse_expression(p.c.expr, p.graph.scope)));
      ++n;
    }
  state.counters["cases/s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Baseline_ParsePrint)->Unit(benchmark::kMillisecond);

void run_simplify(benchmark::State &state, bool cold) {
  double baseline_s = 0, full_s = 0;
  std::size_t n = 0;
  for (auto _ : state) {
    if (cold) clear_caches();
    for (const auto &p : dev_cases()) {
      const auto t0 = Clock::now();
      benchmark::DoNotOptimize(render_expression(parse_expression(p.c.expr, p.graph.scope)));
      const auto t1 = Clock::now();
      benchmark::DoNotOptimize(
          render_expression(simplify(parse_expression(p.c.expr, p.graph.scope))));
      const auto t2 = Clock::now();
      baseline_s += std::chrono::duration<double>(t1 - t0).count();
      full_s += std::chrono::duration<double>(t2 - t1).count();
      ++n;
    }
  }
  state.counters["simplifications/s"] = static_cast<double>(n) / full_s;
  state.counters["per_case_us"] = full_s / static_cast<double>(n) * 1e6;
  state.counters["cost_vs_parse_print"] = full_s / baseline_s;
}

void BM_Simplify_Cold(benchmark::State &state) { run_simplify(state, true); }
BENCHMARK(BM_Simplify_Cold)->Unit(benchmark::kMillisecond);

void BM_Simplify_Warm(benchmark::State &state) { run_simplify(state, false); }
BENCHMARK(BM_Simplify_Warm)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
