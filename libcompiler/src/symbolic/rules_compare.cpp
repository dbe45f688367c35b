// Comparisons (spec §4.3.4) and folds from range analysis (§4.3.5).

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using detail::const_factor;
using detail::constant_like;
using detail::split;

namespace {

const DTypeList kIndex{dtypes::index};

bool is_point(const UOp &u) { return u.vmin() == u.vmax() && is_finite(u.vmin()); }

// Σ terms < c, c > 0: terms whose constant factor shares d = gcd(..., c) > 1 with c can be divided
// by d when the other terms stay inside [0, d) (tinygrad's lt_folding).
UOp lt_folding(const UOp &x, Int c) {
  std::vector<UOp> unit, scaled_terms;
  for (const auto &u : split(x, Op::ADD)) (const_factor(u) == 1 ? unit : scaled_terms).push_back(u);
  if (scaled_terms.empty()) return {};
  Int d = c;
  for (const auto &u : scaled_terms) d = gcd(d, const_factor(u));
  if (d <= 1) return {};
  Int lo = 0, hi = 0;
  for (const auto &u : unit) {
    lo = saturating_add(lo, u.vmin());
    hi = saturating_add(hi, u.vmax());
  }
  if (!(0 <= lo && hi < d)) return {};
  UOp quotient = detail::divides(detail::sum_of(scaled_terms), d);
  if (!quotient) return {};
  return lt(quotient, const_int(floor_div(c, d)));
}

// Σ kᵢ·xᵢ with kᵢ > 0 over non-negative irreducible leaves -> Σ xᵢ (same truth of "> 0").
UOp canonicalize_simplex(const UOp &x) {
  bool changed = false;
  std::vector<UOp> leaves;
  for (UOp u : split(x, Op::ADD)) {
    if (u.op() == Op::MUL && u.size() == 2) {
      if (auto k = u.src(1).const_value(); k && *k > 0) {
        changed = true;
        u = u.src(0);
      }
    }
    const bool irreducible = ops::kIrreducible.contains(u.op()) || u.op() == Op::BUFFER;
    if (!irreducible || u.vmin() < 0) return {};
    leaves.push_back(u);
  }
  return changed ? detail::sum_of(leaves) : UOp{};
}

// x + c stays inside x's dtype (no wrap-around) for every value of x.
bool add_stays_in_range(const UOp &x, Int c) {
  if (!is_sized_int(x.dtype())) return true;
  return saturating_add(x.vmin(), c) >= dtype_min(x.dtype()) &&
         saturating_add(x.vmax(), c) <= dtype_max(x.dtype());
}

}  // namespace

const PatternMatcher &comparison_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "comparisons",
      {
          rule("c0+x<c1 -> x<c1-c0",
               lt(detail::icvar("c0") + var("x", int_dtypes()), detail::icvar("c1")),
               [](const Match &m) -> UOp {
                 const Int c0 = m.value("c0");
                 auto d = checked_sub(m.value("c1"), c0);
                 if (!d || !add_stays_in_range(m["x"], c0) || !detail::fits(m["x"], *d)) return {};
                 return lt(m["x"], constant_like(m["x"], *d));
               }),
          rule("c*x<k -> sign(c)*x<ceil(k/|c|)",
               lt(detail::icvar("c0") * var("x", kIndex), detail::icvar("c1")),
               [](const Match &m) -> UOp {
                 const Int c0 = m.value("c0"), c1 = m.value("c1");
                 if (abs_value(c0) <= 1) return {};
                 const Int bound = -floor_div(-c1, abs_value(c0));
                 return lt(c0 > 0 ? m["x"] : m["x"] * -1, const_int(bound));
               }),
          rule("x//d<c -> x<c*d (d>0), c*d<x (d<0)",
               lt(floordiv(var("x", kIndex), detail::icvar("d")), detail::icvar("c")),
               [](const Match &m) -> UOp {
                 const Int d = m.value("d");
                 auto cd = checked_mul(m.value("c"), d);
                 if (!cd) return {};
                 if (d > 0) return lt(m["x"], const_int(*cd));
                 if (d < 0) return lt(const_int(*cd), m["x"]);
                 return {};
               }),
          rule("sum<c with a common factor -> sum/d<c/d", lt(var("x", kIndex), detail::icvar("c")),
               [](const Match &m) -> UOp {
                 const Int c = m.value("c");
                 return c > 0 ? lt_folding(m["x"], c) : UOp{};
               }),
          rule("x*-1<y*-1 -> y<x", lt(var("x", kIndex) * -1, var("y") * -1),
               [](const Match &m) { return lt(m["y"], m["x"]); }),
          rule("(Σk·x<1)!=true -> (Σx<1)!=true", logical_not(lt(var("x", kIndex), 1)),
               [](const Match &m) -> UOp {
                 UOp simplex = canonicalize_simplex(m["x"]);
                 return simplex ? logical_not(lt(simplex, 1)) : UOp{};
               }),
      });
  return rules;
}

const PatternMatcher &range_fold_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "range folds",
      {
          rule("vmin==vmax -> const",
               pat_any_src({Op::CMPLT, Op::CMPNE, Op::CMPEQ, Op::FLOORDIV, Op::FLOORMOD, Op::PARAM,
                            Op::AFTER, Op::SPECIAL})
                   .named("x"),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"];
                 if (!is_point(x) || !(is_int(x.dtype()) || is_bool(x.dtype()))) return {};
                 return constant_like(x, x.vmin());
               }),
          rule("range of extent 1 -> 0", pat(Op::RANGE, {cvar()}).named("x"),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"];
                 return is_point(x) ? constant_like(x, x.vmin()) : UOp{};
               }),
          rule("where(a<b,b,a) -> max(a,b)",
               where(lt(detail::icvar("a"), var("b")), var("b"), detail::icvar("c")),
               [](const Match &m) -> UOp {
                 if (m["a"].is_invalid() || m["c"].is_invalid() || m.value("a") != m.value("c"))
                   return {};
                 return maximum(m["a"], m["b"]);
               }),
          rule("where(a<b,b,a) -> max(a,b) (const b)",
               where(lt(var("a"), detail::icvar("b")), detail::icvar("c"), var("a")),
               [](const Match &m) -> UOp {
                 if (m["b"].is_invalid() || m["c"].is_invalid() || m.value("b") != m.value("c"))
                   return {};
                 return maximum(m["a"], m["b"]);
               }),
          rule("max(x,y) -> x if x>=y always", maximum(var("x"), var("y")),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"], &y = m["y"];
                 if (is_float(x.dtype()) || is_float(y.dtype())) return {};
                 if (x.vmin() >= y.vmax()) return x;
                 if (x.vmax() <= y.vmin()) return y;
                 return {};
               }),
          rule("(x//c1)//c2 -> x//(c1*c2) (c2>0)",
               floordiv(floordiv(var("x"), detail::icvar("c1")), detail::icvar("c2")),
               [](const Match &m) -> UOp {
                 if (m.value("c2") <= 0) return {};
                 // In a sized int, x//-1 can wrap (-128//-1 is -128 in int8): keep c1 positive.
                 if (is_sized_int(m["x"].dtype()) && m.value("c1") <= 0) return {};
                 auto c = checked_mul(m.value("c1"), m.value("c2"));
                 if (!c || !detail::fits(m["x"], *c)) return {};
                 return floordiv(m["x"], constant_like(m["c1"], *c));
               }),
          rule(
              "range % its extent -> range",
              floormod(pat_any_src(Op::RANGE).with_repeated_src(var("end")).named("r"), var("end")),
              [](const Match &m) { return m["r"]; }),
          rule(
              "range // its extent -> 0",
              floordiv(pat_any_src(Op::RANGE).with_repeated_src(var("end")).named("r"), var("end")),
              [](const Match &m) { return constant_like(m["r"], 0); }),
          rule("after/end of one source -> it", pat({Op::AFTER, Op::END}, {var("s")}),
               [](const Match &m) { return m["s"]; }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
