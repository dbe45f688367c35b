#pragma once
// Reasoning under a valid (a conjunction of comparisons), shared by the valid rules and others.

#include <optional>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::symbolic {

// One clause read as a bound on an expression: expr <= bound (upper) or expr >= bound.
struct ValidClause {
  UOp expr;
  bool is_upper = false;
  Int bound = 0;
};
std::optional<ValidClause> parse_valid(const UOp &clause);

// `uop` simplified under the assumption that `valid` holds; nullopt when `valid` cannot hold.
std::optional<UOp> uop_given_valid(const UOp &valid, UOp uop, bool try_simplex = true);

}  // namespace wavescope::compiler::symbolic
