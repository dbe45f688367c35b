// Property test: random expressions over small domains simplify to equivalent expressions, the
// simplifier always terminates, and range analysis is sound for inputs and results.

#include <catch2/catch.hpp>

#include <cstdlib>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/evaluate.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/random_expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;

namespace {

// Every defined, valid value of `e` over the domain lies in [vmin, vmax].
std::string range_violation(const CaseGraph &g, const UOp &e) {
  Evaluator eval(e);
  std::vector<std::size_t> slots;
  for (const auto &name : eval.inputs())
    for (std::size_t i = 0; i < g.vars.size(); ++i)
      if (g.vars[i].name == name) slots.push_back(i);
  std::vector<Int> point(g.vars.size()), values(slots.size());
  for (std::size_t i = 0; i < g.vars.size(); ++i) point[i] = g.vars[i].min;
  while (true) {
    for (std::size_t i = 0; i < slots.size(); ++i) values[i] = point[slots[i]];
    const Value v = eval(values);
    if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool)
      if (v.v < e.vmin() || v.v > e.vmax())
        return fmt::format("{} = {} outside [{}, {}]", render_expression(e), to_string(v.v),
                           to_string(e.vmin()), to_string(e.vmax()));
    std::size_t i = 0;
    while (i < point.size() && point[i] == g.vars[i].max) point[i] = g.vars[i].min, ++i;
    if (i == point.size()) break;
    ++point[i];
  }
  return {};
}

}  // namespace

TEST_CASE("random expressions simplify to equivalent expressions with sound ranges") {
  // WAVESCOPE_PROPERTY_CASES=N runs more (or fewer) random cases; WAVESCOPE_PROPERTY_SEED moves
  // the first seed.
  const char *env_cases = std::getenv("WAVESCOPE_PROPERTY_CASES");
  const char *env_seed = std::getenv("WAVESCOPE_PROPERTY_SEED");
  const std::uint64_t cases = env_cases ? std::strtoull(env_cases, nullptr, 10) : 1500;
  const std::uint64_t first = env_seed ? std::strtoull(env_seed, nullptr, 10) : 0;
  std::size_t shrunk = 0;
  for (std::uint64_t seed = first; seed < first + cases; ++seed) {
    const SymbolicCase c = random_case(seed);
    std::string vars;
    for (const auto &v : c.vars)
      vars += fmt::format(" --var {}={}:{}:{}", v.name, to_string(v.min), to_string(v.max),
                          to_string(v.dtype));
    INFO("seed " << seed << ": '" << c.expr << "'" << vars);
    const CaseGraph g = build_case(c);
    UOp result;
    REQUIRE_NOTHROW(result = simplify(g.expr));
    INFO("simplified: " << render_expression(result));
    const auto check = check_equivalence(g, result);
    INFO(check.reason);
    REQUIRE(check.equivalent);
    REQUIRE(range_violation(g, g.expr).empty());
    REQUIRE(range_violation(g, result).empty());
    if (count_operations(result) < count_operations(g.expr)) ++shrunk;
  }
  CHECK(shrunk > cases / 4);  // the simplifier does real work on these
}
