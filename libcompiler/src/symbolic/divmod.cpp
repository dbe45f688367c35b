// The division and modulo engine (spec §4.3.6, tinygrad/uop/divandmod.py): fast rules that move
// constants, then a general procedure for x//y and x%y on index math (first applicable step wins):
// constant quotient, multiple-of variables, nested mods, congruence, gcd with remainder, nesting
// by a factor, common symbolic factors, and factoring out the divisible terms.

#include <algorithm>
#include <set>
#include <unordered_map>

#include "symbolic/algebra.hpp"
#include "symbolic/divmod.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using namespace detail;

namespace {

const DTypeList kIndex{dtypes::index};

UOp make_divmod(Op op, const UOp &x, const UOp &y) { return alu(op, {x, y}); }

// Simplification used inside the engine (not traced: it is part of one rule's work).
UOp simplify_quietly(const UOp &u) {
  SuspendTracing quiet;
  RewriteOptions options;
  options.name = "divmod helper";
  return graph_rewrite(u, symbolic(), options);
}

struct Decomposition {
  std::vector<UOp> terms;    // each term divided by its constant factor
  std::vector<Int> factors;  // the constant factors
};

std::optional<Decomposition> decompose(const std::vector<UOp> &uops) {
  Decomposition d;
  for (const auto &u : uops) {
    const Int f = const_factor(u);
    if (f == 0) return std::nullopt;
    UOp t = divides(u, f);
    if (!t) return std::nullopt;
    d.terms.push_back(t);
    d.factors.push_back(f);
  }
  return d;
}

// Σ r·v for coefficients r (zeros skipped), plus k.
UOp weighted_sum(const std::vector<Int> &coefficients, const std::vector<UOp> &terms, Int k) {
  std::vector<UOp> parts;
  for (std::size_t i = 0; i < terms.size(); ++i)
    if (coefficients[i] != 0) parts.push_back(scaled(terms[i], coefficients[i]));
  return sum_of(parts, k);
}

// fold_divmod_general for a constant divisor c > 0; null when no step applies.
UOp constant_divisor(const UOp &d, const UOp &x, Int c, const UOp &x_peeled, Int k,
                     const std::vector<UOp> &uops_no_const) {
  const bool is_div = d.op() == Op::FLOORDIV;
  // nested: (x % (m*c)) // c -> (x // c) % m
  if (is_div && x.op() == Op::FLOORMOD)
    if (UOp m = divides(x.src(1), c); m && m.is_const() && *m.const_value() > 0)
      return floormod(floordiv(x.src(0), d.src(1)), m);
  // (... + u % (m*c) + ...) % c: the inner mod changes nothing
  if (!is_div) {
    bool changed = false;
    std::vector<UOp> xs;
    for (const auto &u : uops_no_const) {
      if (u.op() == Op::FLOORMOD && divides(u.src(1), c)) {
        xs.push_back(u.src(0));
        changed = true;
      } else {
        xs.push_back(u);
      }
    }
    if (changed) return floormod(sum_of(xs) + k, d.src(1));
  }
  auto dec = decompose(uops_no_const);
  if (!dec) return {};
  const auto &terms = dec->terms;
  const auto &factors = dec->factors;

  // congruence: a remainder r ≡ f (mod c) per term; both signs for a lone term or a tie.
  std::vector<std::vector<Int>> choices;
  std::size_t combinations = 1;
  for (Int f : factors) {
    const Int r = floor_mod(f, c);
    if (r * 2 == c || terms.size() == 1)
      choices.push_back({r, r - c});
    else
      choices.push_back({abs_value(r) <= abs_value(r - c) ? r : r - c});
    combinations *= choices.back().size();
  }
  if (combinations <= 4096) {
    std::vector<std::size_t> pick(choices.size(), 0);
    for (std::size_t n = 0; n < combinations; ++n) {
      std::vector<Int> rems;
      std::size_t rest = n;
      for (std::size_t i = choices.size(); i-- > 0;) {
        pick[i] = rest % choices[i].size();
        rest /= choices[i].size();
      }
      for (std::size_t i = 0; i < choices.size(); ++i) rems.push_back(choices[i][pick[i]]);
      const UOp rem = weighted_sum(rems, terms, floor_mod(k, c));
      if (!is_finite(rem.vmin()) || !is_finite(rem.vmax())) continue;
      const Int q = floor_div(rem.vmin(), c);
      if (q != floor_div(rem.vmax(), c)) continue;
      if (!is_div) return q == 0 ? rem : rem + (-q * c);
      std::vector<Int> quotients;
      for (std::size_t i = 0; i < terms.size(); ++i)
        quotients.push_back((factors[i] - rems[i]) / c);
      return weighted_sum(quotients, terms, floor_div(k, c) + q);
    }
  }

  // gcd with remainder: divide the terms by g = gcd(factors, c)
  Int g = c;
  for (Int f : factors) g = gcd(g, f);
  if (g > 1) {
    UOp divided = divides(x_peeled, g);
    if (divided) {
      const UOp new_x = sum_of({simplify_quietly(divided)}, floor_mod(floor_div(k, g), c / g));
      if (new_x.vmin() >= 0) {
        if (!is_div) return sum_of({floormod(new_x, c / g) * g}, floor_mod(k, g));
        return sum_of({floordiv(new_x, c / g)}, floor_div(k, c));
      }
    }
  }

  // nest by factor: x//c -> (x//f)//(c/f), x%c -> ((x//f)%(c/f))*f + (x mod f part)
  std::set<Int> nest_factors;
  for (std::size_t i = 0; i < uops_no_const.size(); ++i) {
    const Int f = abs_value(factors[i]);
    if (!uops_no_const[i].is_const() && f > 1 && f < c && c % f == 0) nest_factors.insert(f);
  }
  UOp best;
  std::size_t best_size = 0;
  for (Int div : nest_factors) {
    UOp inner = fold_divmod_cached(floordiv(x, div));
    if (!inner) continue;
    UOp candidate;
    if (is_div) {
      candidate = floordiv(inner, c / div);
    } else if (x.vmin() >= 0 && inner.vmin() >= 0) {
      std::vector<UOp> parts;
      for (std::size_t i = 0; i < terms.size(); ++i)
        if (const Int r = floor_mod(factors[i], div)) parts.push_back(scaled(terms[i], r));
      const UOp b = sum_of(parts, floor_mod(k, div));
      if (0 <= b.vmin() && b.vmax() < div) candidate = sum_of({floormod(inner, c / div) * div, b});
    }
    if (!candidate) continue;
    // Compare the candidates as they end up, not as first built.
    candidate = simplify_quietly(candidate);
    const std::size_t size = slice_size(candidate);
    if (!best || size < best_size) {
      best = candidate;
      best_size = size;
    }
  }
  return best;
}

}  // namespace

UOp fold_divmod(const UOp &d) {
  if (d.size() != 2 || d.dtype() != dtypes::index) return {};
  const UOp &x = d.src(0);
  const UOp &y = d.src(1);
  const bool is_div = d.op() == Op::FLOORDIV;
  if (y.vmin() == 0 && y.vmax() == 0) return {};  // division by zero stays as written
  // a constant quotient
  const UOp quotient = is_div ? d : floordiv(x, y);
  if (quotient.vmin() == quotient.vmax() && is_finite(quotient.vmin())) {
    const Int q = quotient.vmin();
    if (is_div) return constant_like(d, q);
    return q == 0 ? x : x + y * (-q);
  }
  // a variable that is a multiple of c
  if (x.op() == Op::PARAM && y.is_const()) {
    const auto *p = std::get_if<ParamArg>(&x.arg());
    const Int c = *y.const_value();
    if (p && c != 0 && floor_mod(p->multiple_of, c) == 0)
      return is_div ? UOp{} : constant_like(d, 0);
  }
  auto [x_peeled, k] = pop_const(x);
  const std::vector<UOp> uops_no_const = split(x_peeled, Op::ADD);

  if (y.is_const() && *y.const_value() > 0)
    if (UOp r = constant_divisor(d, x, *y.const_value(), x_peeled, k, uops_no_const)) return r;

  // a common (symbolic) factor of numerator and divisor
  std::vector<UOp> all_uops = split(x, Op::ADD);
  std::vector<UOp> with_divisor = all_uops;
  with_divisor.push_back(y);
  const UOp common = simplify_quietly(gcd_of(with_divisor));
  if (!(common.is_const() && (*common.const_value() == 1 || *common.const_value() == 0))) {
    UOp xd = divide_exact(x, common), yd = divide_exact(y, common);
    if (xd && yd) {
      const UOp r = make_divmod(d.op(), xd, yd);
      return is_div ? r : r * common;
    }
  }

  // factor remainder: terms divisible by y leave the quotient
  if (y.vmin() < 0 || x.vmin() < 0) return {};
  std::vector<UOp> quo, rem;
  for (const auto &u : all_uops) {
    if (UOp q = divide_exact(u, y)) {
      quo.push_back(q);
      continue;
    }
    if (y.is_const()) {
      const Int yc = *y.const_value();
      const Int c = const_factor(u);
      if (c != 0 && floor_mod(c, yc) != c) {
        UOp base = divides(u, c);
        if (base) {
          rem.push_back(scaled(base, floor_mod(c, yc)));
          quo.push_back(is_div ? scaled(base, floor_div(c, yc)) : constant_like(u, 0));
          continue;
        }
      }
    }
    rem.push_back(u);
  }
  if (quo.empty()) return {};
  const UOp new_x = sum_of(rem);
  if (new_x.vmin() < 0) return {};
  if (!is_div) return floormod(new_x, y);
  return floordiv(new_x, y) + sum_of(quo);
}

const PatternMatcher &divmod_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "divmod",
      {
          rule("(x//c+a)//d -> (x+a*c)//(c*d)",
               floordiv(floordiv(var("x", kIndex), detail::icvar("c")) + detail::icvar("a"),
                        detail::icvar("d")),
               [](const Match &m) -> UOp {
                 const Int c = m.value("c"), d = m.value("d");
                 if (d <= 0 || c == 0) return {};
                 auto ac = checked_mul(m.value("a"), c);
                 auto cd = checked_mul(c, d);
                 if (!ac || !cd) return {};
                 return floordiv(m["x"] + *ac, *cd);
               }),
          rule("(x+c)//d, (x+c)%d: c outside [0,d)",
               pat({Op::FLOORDIV, Op::FLOORMOD},
                   {var("x", kIndex) + detail::icvar("c"), detail::icvar("d")})
                   .named("n"),
               [](const Match &m) -> UOp {
                 const Int c = m.value("c"), d = m.value("d");
                 if (d == 0 || floor_mod(c, d) == c) return {};
                 const UOp inner = m["x"] + floor_mod(c, d);
                 if (m["n"].op() == Op::FLOORDIV) return floordiv(inner, m["d"]) + floor_div(c, d);
                 return floormod(inner, m["d"]);
               }),
          rule("general x//y, x%y",
               pat_any_src({Op::FLOORDIV, Op::FLOORMOD}).dtype(kIndex).named("d"),
               [](const Match &m) { return fold_divmod_cached(m["d"]); }),
      });
  return rules;
}

namespace {
// The engine is pure and revisits the same nodes often (nest-by-factor recursion, repeated
// passes); a per-thread memo keeps it fast. Bounded: cleared when it grows large.
thread_local std::unordered_map<UOp, UOp> divmod_memo;
}  // namespace

UOp fold_divmod_cached(const UOp &d) {
  if (auto it = divmod_memo.find(d); it != divmod_memo.end()) return it->second;
  UOp r = fold_divmod(d);
  if (divmod_memo.size() > 20000) divmod_memo.clear();
  divmod_memo.emplace(d, r);
  return r;
}

void clear_caches() { divmod_memo.clear(); }

}  // namespace wavescope::compiler::symbolic
