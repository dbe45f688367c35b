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

std::uint64_t env_or(const char *name, std::uint64_t fallback) {
  const char *v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : fallback;
}

struct CaseOutcome {
  std::string wrong;  // why the result is wrong (empty when right)
  bool shrunk = false;
};

// Simplifies one case and checks termination, equivalence and sound ranges.
CaseOutcome run_case(std::uint64_t seed, const SymbolicCase &c) {
  std::string vars;
  for (const auto &v : c.vars)
    vars += fmt::format(" --var {}={}:{}:{}", v.name, to_string(v.min), to_string(v.max),
                        to_string(v.dtype));
  const std::string what =
      fmt::format("seed {}: wavectl simplify --verify '{}'{}", seed, c.expr, vars);
  const CaseGraph g = build_case(c);
  UOp result;
  try {
    result = simplify(g.expr);
  } catch (const std::exception &e) {
    return {what + ": threw " + e.what()};
  }
  const std::string out = render_expression(result);
  if (const auto check = check_equivalence(g, result); !check.equivalent)
    return {what + " -> " + out + ": " + check.reason};
  if (auto r = range_violation(g, g.expr); !r.empty()) return {what + ": input range: " + r};
  if (auto r = range_violation(g, result); !r.empty()) return {what + " -> " + out + ": " + r};
  return {{}, count_operations(result) < count_operations(g.expr)};
}

// Runs `cases` seeds from `first`; every wrong result fails the test (the first few are shown).
template <typename Generate>
void run_property(std::uint64_t first, std::uint64_t cases, Generate generate) {
  std::size_t shrunk = 0, wrong = 0;
  for (std::uint64_t seed = first; seed < first + cases; ++seed) {
    const CaseOutcome o = run_case(seed, generate(seed));
    if (!o.wrong.empty() && ++wrong <= 10) FAIL_CHECK(o.wrong);
    shrunk += o.shrunk;
  }
  INFO(wrong << " of " << cases << " wrong");
  CHECK(wrong == 0);
  CHECK(shrunk > cases / 4);  // the simplifier does real work on these
}

}  // namespace

TEST_CASE("random expressions simplify to equivalent expressions with sound ranges") {
  // WAVESCOPE_PROPERTY_CASES=N runs more (or fewer) random cases; WAVESCOPE_PROPERTY_SEED moves
  // the first seed.
  run_property(env_or("WAVESCOPE_PROPERTY_SEED", 0), env_or("WAVESCOPE_PROPERTY_CASES", 1500),
               [](std::uint64_t seed) { return random_case(seed); });
}

TEST_CASE("cast-heavy random expressions over mixed dtypes simplify to equivalent expressions") {
  // int8/uint8/int32/int64/index variables (some at the edge of their type) and bool, with
  // explicit casts. WAVESCOPE_TYPED_CASES=N runs more; WAVESCOPE_PROPERTY_SEED moves the first.
  run_property(env_or("WAVESCOPE_PROPERTY_SEED", 0), env_or("WAVESCOPE_TYPED_CASES", 5000),
               [](std::uint64_t seed) { return random_typed_case(seed); });
}

TEST_CASE("random expressions mixing dtypes without casts simplify to equivalent expressions") {
  // The operands of an operator differ in dtype (int8 beside int64, a condition beside uint8,
  // index literals); the parser promotes them. WAVESCOPE_MIXED_CASES=N runs more.
  run_property(env_or("WAVESCOPE_PROPERTY_SEED", 0), env_or("WAVESCOPE_MIXED_CASES", 5000),
               [](std::uint64_t seed) { return random_mixed_case(seed); });
}
