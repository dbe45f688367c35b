// Canonical operand order, constant motion and term combining (spec §4.3.3), and the `sym`-only
// distribution rules. Index math has no SUB or NEG: `x-y` is `x+y*-1`, `-x` is `x*-1`.

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using detail::constant_like;

namespace {

const DTypeList kIndex{dtypes::index};

// c0 op c1 as a constant of x's dtype, or null on overflow.
UOp fold_pair(Op op, const UOp &like, Int c0, Int c1) {
  std::optional<Int> r;
  switch (op) {
  case Op::ADD: r = checked_add(c0, c1); break;
  case Op::MUL: r = checked_mul(c0, c1); break;
  case Op::AND: r = c0 & c1; break;
  case Op::OR: r = c0 | c1; break;
  case Op::MAX: r = std::max(c0, c1); break;
  default: return {};
  }
  if (!r || !is_finite(*r)) return {};
  return constant_like(like, *r);
}

// x*(c0+c1) with the coefficient folded.
UOp combined(const UOp &x, Int c0, Int c1) {
  auto c = checked_add(c0, c1);
  if (!c) return {};
  return detail::scaled(x, *c);
}

}  // namespace

const PatternMatcher &canonical_order_rules() {
  static const PatternMatcher rules =
      detail::rule_set("canonical order",
                       {
                           rule("commutative operands in canonical order",
                                pat_any_src(ops::kCommutative).dtype(kIndex).named("x"),
                                [](const Match &m) -> UOp {
                                  const UOp &x = m["x"];
                                  if (x.size() != 2 || structural_compare(x.src(1), x.src(0)) >= 0)
                                    return {};
                                  return x.with_src({x.src(1), x.src(0)});
                                }),
                       });
  return rules;
}

const PatternMatcher &term_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "terms",
      {
          rule("x*c0+x*c1 -> x*(c0+c1)",
               var("x") * detail::icvar("c0") + var("x") * detail::icvar("c1"),
               [](const Match &m) { return combined(m["x"], m.value("c0"), m.value("c1")); }),
          rule("(y+x*c0)+x*c1 -> y+x*(c0+c1)",
               (var("y") + var("x") * detail::icvar("c0")) + var("x") * detail::icvar("c1"),
               [](const Match &m) -> UOp {
                 UOp t = combined(m["x"], m.value("c0"), m.value("c1"));
                 return t ? m["y"] + t : UOp{};
               }),
          rule("x+x*c -> x*(c+1)", var("x") + var("x") * detail::icvar("c"),
               [](const Match &m) { return combined(m["x"], m.value("c"), 1); }),
          rule("(y+x)+x*c -> y+x*(c+1)", (var("y") + var("x")) + var("x") * detail::icvar("c"),
               [](const Match &m) -> UOp {
                 UOp t = combined(m["x"], m.value("c"), 1);
                 return t ? m["y"] + t : UOp{};
               }),
          rule("(y+x*c)+x -> y+x*(c+1)", (var("y") + var("x") * detail::icvar("c")) + var("x"),
               [](const Match &m) -> UOp {
                 UOp t = combined(m["x"], m.value("c"), 1);
                 return t ? m["y"] + t : UOp{};
               }),
          rule("x+x -> x*2", var("x") + var("x"), [](const Match &m) { return m["x"] * 2; }),
          rule("(y+x)+x -> y+x*2", (var("y") + var("x")) + var("x"),
               [](const Match &m) { return m["y"] + m["x"] * 2; }),
          rule("-1*(x+c) -> -x+-c", constant(-1) * (var("x") + detail::icvar("c")),
               [](const Match &m) -> UOp {
                 auto c = checked_mul(m.value("c"), -1);
                 if (!c) return {};
                 return m["x"] * -1 + constant_like(m["c"], *c);
               }),
          rule("c*(x+c2) -> c*x+c*c2 (index)",
               detail::icvar("y") * (var("x", kIndex) + detail::icvar("c")),
               [](const Match &m) -> UOp {
                 auto c = checked_mul(m.value("y"), m.value("c"));
                 if (!c) return {};
                 return m["x"] * m["y"] + constant_like(m["c"], *c);
               }),
          rule("(x op c1) op c2 -> x op (c1 op c2)",
               any_of({pat(Op::ADD).with_permuted_src(
                           {pat(Op::ADD).with_permuted_src({var("x"), detail::icvar("c1")}),
                            detail::icvar("c2")}),
                       pat(Op::MUL).with_permuted_src(
                           {pat(Op::MUL).with_permuted_src({var("x"), detail::icvar("c1")}),
                            detail::icvar("c2")}),
                       pat(Op::AND).with_permuted_src(
                           {pat(Op::AND).with_permuted_src({var("x"), detail::icvar("c1")}),
                            detail::icvar("c2")}),
                       pat(Op::OR).with_permuted_src(
                           {pat(Op::OR).with_permuted_src({var("x"), detail::icvar("c1")}),
                            detail::icvar("c2")}),
                       pat(Op::MAX).with_permuted_src(
                           {pat(Op::MAX).with_permuted_src({var("x"), detail::icvar("c1")}),
                            detail::icvar("c2")})})
                   .named("f"),
               [](const Match &m) -> UOp {
                 const UOp &f = m["f"];
                 if (is_bool(m["c1"].dtype()) || is_bool(m["c2"].dtype()) || m["c1"].is_invalid() ||
                     m["c2"].is_invalid())
                   return {};
                 // ADD, MUL and the bitwise ops commute with a sized int's wrap-around; MAX does
                 // not, so there both constants must be values of the dtype.
                 if (f.op() == Op::MAX &&
                     (!detail::fits(f, m.value("c1")) || !detail::fits(f, m.value("c2"))))
                   return {};
                 UOp c = fold_pair(f.op(), f, m.value("c1"), m.value("c2"));
                 if (!c || !detail::fits(f, *c.const_value())) return {};
                 return alu(f.op(), {m["x"], c});
               }),
          rule("(x+c1)+y -> (x+y)+c1", (var("x") + detail::icvar("c1")) + var("y"),
               [](const Match &m) -> UOp {
                 if (m["y"].is_const()) return {};
                 return (m["x"] + m["y"]) + m["c1"];
               }),
          rule("(x*c1)*y -> (x*y)*c1", (var("x") * detail::icvar("c1")) * var("y"),
               [](const Match &m) -> UOp {
                 if (m["y"].is_const()) return {};
                 return (m["x"] * m["y"]) * m["c1"];
               }),
      });
  return rules;
}

const PatternMatcher &distribution_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "distribution",
      {
          rule("-1*(x+y) -> -x+-y", constant(-1) * (var("x") + var("y")),
               [](const Match &m) { return m["x"] * -1 + m["y"] * -1; }),
          rule("(x+y)*c -> x*c+y*c (index)", (var("x", kIndex) + var("y")) * detail::icvar("c"),
               [](const Match &m) { return m["x"] * m["c"] + m["y"] * m["c"]; }),
          rule("cast(where(s,a,b)) -> where(s,cast(a),cast(b))",
               pat(Op::CAST, {where(var("s"), var("a"), var("b"))}).named("cast"),
               [](const Match &m) -> UOp {
                 const DType to = m["cast"].dtype();
                 auto commit = [&](const UOp &x) {
                   if (auto v = x.const_value(); v && !is_float(to)) return const_int(*v, to);
                   return cast(x, to);
                 };
                 return where(m["s"], commit(m["a"]), commit(m["b"]));
               }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
