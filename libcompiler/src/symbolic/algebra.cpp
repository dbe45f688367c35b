#include "symbolic/algebra.hpp"

#include <algorithm>
#include <map>

#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::symbolic::detail {

void split_into(const UOp &u, Op sep, std::vector<UOp> &out) {
  if (u.op() == sep) {
    for (const auto &s : u.src()) split_into(s, sep, out);
  } else {
    out.push_back(u);
  }
}

std::vector<UOp> split(const UOp &u, Op sep) {
  std::vector<UOp> out;
  split_into(u, sep, out);
  return out;
}

std::optional<Int> int_value(const UOp &u) { return u.const_value(); }

std::pair<UOp, Int> pop_const(const UOp &u, Op op) {
  if (u.op() == op && u.size() == 2)
    if (auto c = int_value(u.src(1)); c && !is_bool(u.src(1).dtype())) return {u.src(0), *c};
  return {u, op == Op::MUL ? 1 : 0};
}

Int const_factor(const UOp &u) {
  switch (u.op()) {
  case Op::CONST:
    if (auto c = int_value(u)) return *c;
    return 1;
  case Op::ADD:
    if (u.size() == 2) return gcd(const_factor(u.src(0)), const_factor(u.src(1)));
    return 1;
  case Op::MUL:
    if (u.size() == 2) {
      if (auto c = int_value(u.src(0))) return *c;
      if (auto c = int_value(u.src(1))) return *c;
    }
    return 1;
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = std::get_if<ParamArg>(&u.arg())) return p->multiple_of;
    return 1;
  default: return 1;
  }
}

UOp constant_like(const UOp &like, Int value) { return const_int(value, like.dtype()); }

UOp scaled(const UOp &v, Int c) {
  if (c == 0) return constant_like(v, 0);
  if (c == 1) return v;
  return v * c;
}

UOp divides(const UOp &u, Int v) {
  if (v == 1) return u;
  if (v == 0) return {};
  switch (u.op()) {
  case Op::CONST:
    if (auto c = int_value(u); c && !is_bool(u.dtype()) && floor_mod(*c, v) == 0)
      return constant_like(u, floor_div(*c, v));
    return {};
  case Op::ADD: {
    if (u.size() != 2) return {};
    UOp a = divides(u.src(0), v);
    if (!a) return {};
    UOp b = divides(u.src(1), v);
    if (!b) return {};
    return a + b;
  }
  case Op::MUL: {
    if (u.size() != 2) return {};
    // A constant factor divides exactly: x*(c/v), folded when trivial.
    for (int i : {1, 0}) {
      if (auto c = int_value(u.src(i)); c && !is_bool(u.src(i).dtype())) {
        if (floor_mod(*c, v) != 0) continue;
        return scaled(u.src(1 - i), floor_div(*c, v));
      }
    }
    if (UOp a = divides(u.src(0), v)) return a * u.src(1);
    if (UOp b = divides(u.src(1), v)) return u.src(0) * b;
    return {};
  }
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = std::get_if<ParamArg>(&u.arg()); p && floor_mod(p->multiple_of, v) == 0)
      return floordiv(u, v);
    return {};
  default: return {};
  }
}

namespace {

// The non-constant factors of a product, as a multiset keyed by node.
std::map<const UOpNode *, std::pair<UOp, int>> factor_counts(const UOp &u) {
  std::map<const UOpNode *, std::pair<UOp, int>> counts;
  for (const auto &f : split(u, Op::MUL)) {
    auto &entry = counts[f.get()];
    entry.first = f;
    ++entry.second;
  }
  return counts;
}

UOp product_of(const std::vector<UOp> &factors, const UOp &like, Int c) {
  if (factors.empty()) return constant_like(like, c);
  UOp acc = factors[0];
  for (std::size_t i = 1; i < factors.size(); ++i) acc = acc * factors[i];
  return scaled(acc, c);
}

}  // namespace

UOp divide_exact(const UOp &u, const UOp &v) {
  if (u == v) return constant_like(u, 1);
  if (auto c = int_value(v); c && !is_bool(v.dtype())) return divides(u, *c);
  if (u.op() == Op::ADD && u.size() == 2) {
    UOp a = divide_exact(u.src(0), v);
    if (!a) return {};
    UOp b = divide_exact(u.src(1), v);
    if (!b) return {};
    return a + b;
  }
  if (u.op() == Op::MUL) {
    auto [fac, k] = pop_const(u, Op::MUL);
    auto [div_fac, div_k] = pop_const(v, Op::MUL);
    if (div_k == 0 || floor_mod(k, div_k) != 0) return {};
    auto counts = factor_counts(fac);
    for (const auto &f : split(div_fac, Op::MUL)) {
      auto it = counts.find(f.get());
      if (it == counts.end() || it->second.second == 0) return {};
      --it->second.second;
    }
    std::vector<UOp> remaining;
    for (const auto &f : split(fac, Op::MUL)) {  // keep the original order
      auto &entry = counts[f.get()];
      if (entry.second > 0) {
        remaining.push_back(f);
        --entry.second;
      }
    }
    return product_of(remaining, u, floor_div(k, div_k));
  }
  return {};
}

UOp gcd_of(const std::vector<UOp> &uops) {
  if (uops.empty()) return {};
  Int g = 0;
  std::map<const UOpNode *, std::pair<UOp, int>> common;
  UOp first_term;
  for (const auto &u : uops) {
    const Int f = const_factor(u);
    UOp term = divides(u, f);
    if (term) {
      g = gcd(g, f);
    } else {
      term = u;
      g = gcd(g, 1);
    }
    auto counts = factor_counts(term);
    if (!first_term) {
      first_term = term;
      common = std::move(counts);
      continue;
    }
    for (auto &[key, entry] : common) {
      auto it = counts.find(key);
      entry.second = it == counts.end() ? 0 : std::min(entry.second, it->second.second);
    }
  }
  std::vector<UOp> shared;
  for (const auto &f : split(first_term, Op::MUL)) {  // in the first term's order
    if (int_value(f)) continue;
    auto it = common.find(f.get());
    if (it != common.end() && it->second.second > 0) {
      shared.push_back(f);
      --it->second.second;
    }
  }
  return product_of(shared, uops[0], g);
}

UOp sum_of(const std::vector<UOp> &terms, Int k) {
  UOp acc;
  for (const auto &t : terms) acc = acc ? acc + t : t;
  if (!acc) return const_int(k);
  if (k != 0) acc = acc + k;
  return acc;
}

std::size_t slice_size(const UOp &u) { return toposort(u).size() - 1; }

namespace {
// Whether n is a division, modulo or shift whose right operand may be zero (resp. negative).
bool is_risky(const UOp &n) {
  switch (n.op()) {
  case Op::FLOORDIV:
  case Op::FLOORMOD:
  case Op::CDIV:
  case Op::CMOD: return n.src(1).vmin() <= 0 && n.src(1).vmax() >= 0;
  case Op::SHL:
  case Op::SHR: return n.src(1).vmin() < 0;
  default: return false;
  }
}

// The divisors / shift amounts of the possibly undefined operations of u.
std::vector<UOp> risky_operands(const UOp &u) {
  std::vector<UOp> risky;
  for (const auto &n : toposort(u))
    if (is_risky(n)) risky.push_back(n.src(1));
  return risky;
}
}  // namespace

bool introduces_undefined(const UOp &before, const UOp &after) {
  const auto old_risks = risky_operands(before);
  for (const auto &r : risky_operands(after))
    if (std::find(old_risks.begin(), old_risks.end(), r) == old_risks.end()) return true;
  return false;
}

bool may_be_undefined(const UOp &u) {
  const auto nodes = toposort(u);
  return std::any_of(nodes.begin(), nodes.end(), is_risky);
}

bool fits(const UOp &u, Int value) {
  if (is_sized_int(u.dtype()))
    return value >= dtype_min(u.dtype()) && value <= dtype_max(u.dtype());
  return is_finite(value);
}

}  // namespace wavescope::compiler::symbolic::detail
