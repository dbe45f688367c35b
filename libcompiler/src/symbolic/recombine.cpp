// Div/mod recombination (spec §4.3.7): in a sum, a scaled remainder (b % D)·m and a partner term
// q·(D·m) whose q is the quotient of a b' ≡ b (mod D) recombine into b'·m; a partner
// ((b // D) % d)·(D·m) recombines into (b % (D·d))·m. Quotients may be stored merged
// (x//c//D as x//(c·D)) or shifted by constants; every success shrinks the sum.

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using namespace detail;

namespace {

// The b with q == b // div and b ≡ base (mod div), or null (tinygrad's _quotient_base).
UOp quotient_base(const UOp &q_in, const UOp &base_in, Int div) {
  auto [q, s] = pop_const(q_in);
  auto [num, a] = pop_const(base_in);
  if (q.op() != Op::FLOORDIV || !q.src(1).is_const()) return {};
  const Int qd = *q.src(1).const_value();
  Int big_d = 0;
  if (div > 0 && num.op() == Op::FLOORDIV && num.src(1).is_const() &&
      qd == *num.src(1).const_value() * div) {
    const Int c = *num.src(1).const_value();
    num = num.src(0);
    a = a * c;
    big_d = c * div;
  } else if (qd == div) {
    big_d = div;
  } else {
    return {};
  }
  auto [xx, xa] = pop_const(num);
  auto [p, pa] = pop_const(q.src(0));
  if (!(p == xx)) return {};
  const Int t = xa + a - pa;
  if (big_d == 0 || floor_mod(t, big_d) != 0) return {};
  const Int k = floor_div(t, big_d) - s;
  return k ? base_in + (-k * div) : base_in;
}

UOp fold_add_divmod_recombine(const UOp &x) {
  const std::vector<UOp> terms = split(x, Op::ADD);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    auto [mod, mul] = pop_const(terms[i], Op::MUL);
    if (mod.op() != Op::FLOORMOD || !mod.src(1).is_const()) continue;
    const UOp &base = mod.src(0);
    const Int div = *mod.src(1).const_value();
    for (std::size_t j = 0; j < terms.size(); ++j) {
      auto [q, scale] = pop_const(terms[j], Op::MUL);
      if (i == j || scale != div * mul) continue;
      std::vector<UOp> rest;
      for (std::size_t n = 0; n < terms.size(); ++n)
        if (n != i && n != j) rest.push_back(terms[n]);
      if (UOp b = quotient_base(q, base, div)) {
        rest.insert(rest.begin(), scaled(b, mul));
        return sum_of(rest);
      }
      if (q.op() == Op::FLOORMOD && q.src(1).is_const()) {
        const Int d = *q.src(1).const_value();
        if (d > 0)
          if (UOp b = quotient_base(q.src(0), base, div)) {
            rest.insert(rest.begin(), scaled(floormod(b, div * d), mul));
            return sum_of(rest);
          }
      }
    }
  }
  return {};
}

}  // namespace

const PatternMatcher &recombine_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "recombine",
      {
          rule("(b%D)*m + (b//D)*D*m -> b*m", pat_any_src(Op::ADD).dtype(dtypes::index).named("x"),
               [](const Match &m) { return fold_add_divmod_recombine(m["x"]); }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
