// Valid (gate) simplification (spec §4.3.9): the clauses of an `&` chain bound expressions
// (X < c gives X <= c-1, c < X gives X >= c+1, (X < c) != true gives X >= c); an expression is
// simplified under those bounds by substituting a fresh variable with the tightened range.

#include <algorithm>
#include <map>

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "symbolic/valid.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using namespace detail;

namespace {

UOp simplify_quietly(const UOp &u) {
  SuspendTracing quiet;
  RewriteOptions options;
  options.name = "valid helper";
  return graph_rewrite(u, symbolic(), options);
}

// A placeholder variable no expression text can name ('$' is not an identifier character).
UOp fake_variable(std::size_t i, Int lo, Int hi, DType dtype) {
  return variable("$valid" + std::to_string(i), lo, hi, dtype);
}

bool all_same(const std::vector<UOp> &v) {
  return std::all_of(v.begin(), v.end(), [&](const UOp &u) { return u == v[0]; });
}

}  // namespace

std::optional<ValidClause> parse_valid(const UOp &v) {
  // (X < c) != true  ->  X >= c
  if (v.op() == Op::CMPNE && v.size() == 2 && v.src(1).is_const() && v.src(1).const_value() == 1) {
    const UOp &s0 = v.src(0);
    if (s0.op() == Op::CMPLT && is_int(s0.src(0).dtype()) && is_finite(s0.src(1).vmin()))
      return ValidClause{s0.src(0), false, s0.src(1).vmin()};
  }
  if (v.op() == Op::CMPLT && is_int(v.src(0).dtype())) {
    // c < X  ->  X >= c+1
    if (v.src(0).is_const()) return ValidClause{v.src(1), false, *v.src(0).const_value() + 1};
    // X < c  ->  X <= c-1
    if (is_finite(v.src(1).vmax())) return ValidClause{v.src(0), true, v.src(1).vmax() - 1};
  }
  return std::nullopt;
}

std::optional<UOp> uop_given_valid(const UOp &valid, UOp uop, bool try_simplex) {
  // Bounds per expression, in the order the clauses name them.
  std::vector<UOp> exprs;
  std::map<const UOpNode *, std::pair<std::optional<Int>, std::optional<Int>>> bounds;
  for (const auto &stmt : split(valid, Op::AND)) {
    auto clause = parse_valid(stmt);
    if (!clause) continue;
    auto [it, inserted] = bounds.try_emplace(clause->expr.get());
    if (inserted) exprs.push_back(clause->expr);
    auto &[lower, upper] = it->second;
    // Several clauses on one expression: the tightest bound wins.
    if (clause->is_upper)
      upper = upper ? std::min(*upper, clause->bound) : clause->bound;
    else
      lower = lower ? std::max(*lower, clause->bound) : clause->bound;
  }
  std::vector<std::pair<UOp, UOp>> all_candidates;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const UOp &expr = exprs[i];
    const auto &[lower, upper] = bounds.at(expr.get());
    const Int v0 = lower ? std::max(*lower, expr.vmin()) : expr.vmin();
    const Int v1 = upper ? std::min(*upper, expr.vmax()) : expr.vmax();
    if (v0 > v1) return std::nullopt;  // the valid can never hold
    if (!is_finite(v0) || !is_finite(v1)) continue;
    all_candidates.emplace_back(expr, fake_variable(i, v0, v1, expr.dtype()));
    if (!try_simplex) continue;
    std::vector<std::vector<std::pair<UOp, UOp>>> candidates{{all_candidates.back()}};
    if (expr.op() == Op::ADD && v0 == 1) {
      const auto leaves = split(expr, Op::ADD);
      const bool simplex = std::all_of(leaves.begin(), leaves.end(), [](const UOp &u) {
        return ops::kIrreducible.contains(u.op()) || u.op() == Op::BUFFER;
      });
      if (simplex) {
        std::vector<std::pair<UOp, UOp>> each;
        for (const auto &xi : leaves)
          if (is_finite(xi.vmax()) && xi.vmax() >= 1)
            each.emplace_back(xi, fake_variable(i, 1, xi.vmax(), xi.dtype()));
        if (each.size() == leaves.size()) candidates.push_back(std::move(each));
      }
    }
    for (const auto &candidate : candidates) {
      const bool all_present = std::all_of(candidate.begin(), candidate.end(),
                                           [&](const auto &c) { return in_graph(uop, c.first); });
      if (!all_present) continue;
      std::vector<UOp> results;
      for (const auto &[x, fake] : candidate)
        results.push_back(simplify_quietly(
            substitute(simplify_quietly(substitute(uop, {{x, fake}})), {{fake, x}})));
      if (all_same(results)) uop = results[0];
    }
  }
  // All bounds together (whole expressions only).
  std::unordered_map<UOp, UOp> forward, back;
  for (const auto &[x, fake] : all_candidates) {
    forward.emplace(x, fake);
    back.emplace(fake, x);
  }
  UOp substituted = substitute(uop, forward);
  if (!(substituted == uop))
    uop = simplify_quietly(substitute(simplify_quietly(substituted), back));
  return uop;
}

namespace {

bool same_clauses(std::vector<UOp> a, std::vector<UOp> b) {
  const auto by_node = [](const UOp &x, const UOp &y) { return x.get() < y.get(); };
  std::sort(a.begin(), a.end(), by_node);
  std::sort(b.begin(), b.end(), by_node);
  return a == b;
}

UOp simplify_valid(const UOp &valid) {
  if (graph_has_op(valid, Op::INDEX)) return {};
  std::vector<UOp> valids = split(valid, Op::AND);
  // Clauses whose subject appears inside other clauses go first, so the others simplify.
  auto priority = [&](const UOp &v) {
    auto clause = parse_valid(v);
    if (!clause) return 0;
    int p = 0;
    for (const auto &other : valids)
      if (in_graph(other, clause->expr)) --p;
    return p;
  };
  std::vector<std::pair<int, std::size_t>> order;
  for (std::size_t i = 0; i < valids.size(); ++i) order.emplace_back(priority(valids[i]), i);
  std::sort(order.begin(), order.end());  // by priority, then original position (stable)
  std::vector<UOp> sorted;
  for (const auto &[p, i] : order) sorted.push_back(valids[i]);
  std::vector<UOp> ret;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    UOp stmt = sorted[i];
    if (std::find(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(i), stmt) !=
        sorted.begin() + static_cast<std::ptrdiff_t>(i))
      continue;  // duplicate clause
    if (!ret.empty()) {
      auto given = uop_given_valid(uprod(ret), stmt);
      if (!given) return const_bool(false);  // the earlier clauses contradict each other
      // `&` evaluates every clause, also where the earlier ones fail: the simplified clause must
      // not become undefined (a division by a zero it learned from them) where it was not.
      if (!detail::introduces_undefined(stmt, *given)) stmt = *given;
    }
    ret.push_back(stmt);
  }
  // Beyond tinygrad: a clause implied by the others (kept so far) goes, e.g. a<8 beside a<4.
  // One at a time against the current set, so two clauses never justify each other's removal.
  for (std::size_t i = ret.size(); ret.size() > 1 && i-- > 0;) {
    if (!parse_valid(ret[i])) continue;
    std::vector<UOp> others = ret;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    auto given = uop_given_valid(uprod(others), ret[i]);
    if (given && given->is_const() && given->const_value() == 1)
      ret.erase(ret.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // The clauses were only put in another order: that is not a simplification, and the reordered
  // chain's own prefix (an `&` of fewer clauses) can sort the other way, so rewriting it would
  // swap the two orders forever.
  if (same_clauses(ret, valids)) return {};
  return uprod(ret);
}

UOp gated_given_valid(const UOp &cond, const UOp &x, const UOp &i) {
  // Pure index math only: a load inside x runs even where cond is false.
  if (x.dtype() != dtypes::index || graph_has_op(x, Op::INDEX)) return {};
  auto given = uop_given_valid(cond, x, false);
  if (!given) return i;  // cond never holds
  return where(cond, *given, i);
}

}  // namespace

const PatternMatcher &valid_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "valid",
      {
          rule("simplify the clauses of a valid",
               pat_any_src(Op::AND).dtype(dtypes::bool_).named("valid"),
               [](const Match &m) { return simplify_valid(m["valid"]); }),
          rule("where(c,x,invalid): x given c", where(var("cond"), var("x"), invalid_pat("i")),
               [](const Match &m) { return gated_given_valid(m["cond"], m["x"], m["i"]); }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
