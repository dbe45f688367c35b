// The pattern language and compiled matchers: captures, commutative matching, repeated names,
// source forms, alternation, filters and early rejection.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;

namespace {
// A matcher with one rule that returns a marker constant when the pattern matches.
PatternMatcher matcher_for(const Pat &p) {
  return PatternMatcher("test", {rule("match", p, [](const Match &) { return const_int(777); })});
}
bool matches(const Pat &p, const UOp &node) {
  return static_cast<bool>(matcher_for(p).rewrite(node));
}
const UOp a = variable("a", 0, 8);
const UOp b = variable("b", 0, 8);
}  // namespace

TEST_CASE("commutative patterns match either operand order") {
  const Pat x_plus_0 = var("x") + 0;
  CHECK(matches(x_plus_0, a + 0));
  CHECK(matches(x_plus_0, const_int(0) + a));
  CHECK_FALSE(matches(x_plus_0, a + 1));
  // A tuple pattern (floordiv) is positional.
  CHECK(matches(floordiv(var("x"), 1), floordiv(a, 1)));
  CHECK_FALSE(matches(floordiv(var("x"), 1), floordiv(const_int(1), a)));
}

TEST_CASE("captures are handed to the rule and a repeated name must bind the same node") {
  PatternMatcher pm(
      "test", {rule("x*c0+x*c1 -> x*(c0+c1)", var("x") * cvar("c0") + var("x") * cvar("c1"),
                    [](const Match &m) { return m["x"] * (m.value("c0") + m.value("c1")); })});
  CHECK(pm.rewrite(a * 3 + a * 5) == a * 8);
  CHECK(pm.rewrite(const_int(5) * a + a * 3) == a * 8);  // inner operands commute too
  CHECK_FALSE(pm.rewrite(a * 3 + b * 5));                // x must be the same node
  // Structural equality is pointer equality: an equal subtree built separately binds too.
  CHECK(pm.rewrite((a + 1) * 2 + (a + 1) * 3) == (a + 1) * 5);
}

TEST_CASE("every binding is offered until the callback accepts one") {
  // Both orders of ADD bind: the callback declines the first and accepts the second.
  std::vector<std::string> seen;
  PatternMatcher pm("test", {rule("choose", var("x") + var("y"), [&](const Match &m) -> UOp {
                      seen.push_back(m["x"] == a ? "a first" : "b first");
                      return m["x"] == b ? m["y"] : UOp{};
                    })});
  CHECK(pm.rewrite(a + b) == a);
  CHECK(seen == std::vector<std::string>{"a first", "b first"});
}

TEST_CASE("dtype filters, constant values and any-length tuples") {
  const UOp i32 = variable("i", 0, 8, dtypes::int32);
  CHECK(matches(var("x", dtypes::index) * 2, a * 2));
  CHECK_FALSE(matches(var("x", dtypes::index) * 2, i32 * 2));
  // A constant pattern compares by value like Python: 0 matches false too.
  CHECK(matches(var("x") + 0, a + 0));
  CHECK(matches(bit_or(var("x"), constant(0)), bit_or(lt(a, 3), const_bool(false))));
  const UOp store = UOp::make(Op::STORE, dtypes::void_, {a, b, lt(a, 2)});
  CHECK(matches(pat(Op::STORE, {var(), var()}, true), store));
  CHECK_FALSE(matches(pat(Op::STORE, {var(), var()}), store));
}

TEST_CASE("repeat sources and alternation") {
  const UOp stack = UOp::make(Op::STACK, {invalid(), invalid()});
  CHECK(matches(pat_any_src(Op::STACK).with_repeated_src(invalid_pat()), stack));
  CHECK_FALSE(matches(pat_any_src(Op::STACK).with_repeated_src(invalid_pat()),
                      UOp::make(Op::STACK, {invalid(), a})));
  const Pat casted = or_casted(var("x", dtypes::index), "y");
  CHECK(matches(pat(Op::SQRT, {casted}), alu(Op::SQRT, {a})));
  CHECK(matches(pat(Op::SQRT, {casted}), alu(Op::SQRT, {cast(a, dtypes::float32)})));
  // A name on an alternation captures whichever alternative matched.
  PatternMatcher pm("test", {rule("named any", any_of({var() + 1, var() * 2}).named("n"),
                                  [](const Match &m) { return alu(Op::NEG, {m["n"]}); })});
  CHECK(pm.rewrite(a * 2) == alu(Op::NEG, {a * 2}));
}

TEST_CASE("rules are filed by root op, carry an early-reject set and a source location") {
  const auto pm = matcher_for(var("x") * cvar("c") + var("y"));
  REQUIRE(pm.rules().size() == 1);
  const auto &r = *pm.rules()[0];
  CHECK(r.root_ops() == OpSet{Op::ADD});
  CHECK(r.early_reject() == OpSet{Op::MUL});  // an ADD without a MUL child is skipped unseen
  CHECK(r.location_text().starts_with("test_pattern_matcher.cpp:"));
  CHECK_FALSE(pm.rewrite(a + b));
  CHECK_THROWS_AS(
      PatternMatcher("bad", {rule("no root op", var("x"), [](const Match &) { return UOp{}; })}),
      wavescope::Error);
}

TEST_CASE("matchers concatenate, keeping rule order") {
  PatternMatcher first("first",
                       {rule("to 1", var("x") + 0, [](const Match &) { return const_int(1); })});
  PatternMatcher second("second",
                        {rule("to 2", var("x") + 0, [](const Match &) { return const_int(2); })});
  CHECK((first + second).rewrite(a + 0) == const_int(1));
  CHECK((second + first).rewrite(a + 0) == const_int(2));
  CHECK((first + second).name() == "first+second");
  CHECK((first + second).rules()[1]->family() == "second");
}

TEST_CASE("a rule's context object is type-checked") {
  struct Counter {
    int hits = 0;
  };
  Counter counter;
  PatternMatcher pm("test", {rule("count", var("x") + 0, [](const Match &m) {
                      ++m.context<Counter>().hits;
                      return m["x"];
                    })});
  CHECK(pm.rewrite(a + 0, counter) == a);
  CHECK(counter.hits == 1);
  int wrong = 0;
  CHECK_THROWS_AS(pm.rewrite(a + 0, wrong), wavescope::Error);
}
