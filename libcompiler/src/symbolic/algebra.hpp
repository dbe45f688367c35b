#pragma once
// Algebra on integer expression graphs that the simplifier's rules share (spec §1.7 helpers):
// splitting sums and products into terms, constant factors, exact division by integers and by
// expressions, and building sums without trivial nodes.

#include <optional>
#include <vector>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern.hpp"

namespace wavescope::compiler::symbolic::detail {

// The operands of a nested chain of `sep` (ADD: the terms of a sum).
std::vector<UOp> split(const UOp &u, Op sep);
void split_into(const UOp &u, Op sep, std::vector<UOp> &out);

// (x, c) for `x op c` with a constant c on the right, else (u, identity of op).
std::pair<UOp, Int> pop_const(const UOp &u, Op op = Op::ADD);

// The integer value of an int or bool CONST.
std::optional<Int> int_value(const UOp &u);

// The largest known integer dividing u (tinygrad's const_factor; may be negative or 0 for
// constants and scaled terms).
Int const_factor(const UOp &u);

// u / v when u is provably a multiple of v (structurally), else a null UOp.
UOp divides(const UOp &u, Int v);
// u / v for an expression v (a multiset of factors), else a null UOp.
UOp divide_exact(const UOp &u, const UOp &v);
// The greatest common factor of expressions: shared symbolic factors times the gcd of constants.
UOp gcd_of(const std::vector<UOp> &uops);

// v*c with the trivial cases folded (0 for c == 0, v for c == 1).
UOp scaled(const UOp &v, Int c);
// A sum of terms, left-nested; the constant `k` (if non-zero) last; 0 when empty.
UOp sum_of(const std::vector<UOp> &terms, Int k = 0);

// A constant in the dtype of `like` (bools stay bools).
UOp constant_like(const UOp &like, Int value);

// Nodes reachable from u, excluding u (tinygrad's len(backward_slice)).
std::size_t slice_size(const UOp &u);

// True when evaluating u can be undefined somewhere in its domain (a division or modulo by a
// divisor whose range holds 0, a shift by a possibly negative amount). Rules that move such an
// expression out from under a where's guard would make it evaluate where it did not.
bool may_be_undefined(const UOp &u);
// True when `after` has a possibly undefined operation (as above) whose divisor or shift amount
// is not one that `before` already risked: `after` may be undefined where `before` was not.
bool introduces_undefined(const UOp &before, const UOp &after);

// An integer constant pattern (index or sized int): rules that compute with a constant's value
// use it, so float and Invalid constants never reach their arithmetic.
inline rewrite::Pat icvar(std::string name) {
  return rewrite::cvar(std::move(name), rewrite::int_dtypes());
}
// A bool or integer constant pattern.
inline rewrite::Pat bcvar(std::string name) {
  auto types = rewrite::int_dtypes();
  types.push_back(dtypes::bool_);
  return rewrite::cvar(std::move(name), std::move(types));
}

// True when a result of that value may be a constant of u's dtype without wrapping.
bool fits(const UOp &u, Int value);

}  // namespace wavescope::compiler::symbolic::detail
