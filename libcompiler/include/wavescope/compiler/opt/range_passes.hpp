#pragma once
// The front half's passes on ranges (spec §5.2 stages 4, 6 and 8), each a named graph_rewrite
// pass recorded in the active rewrite trace:
//
//   "split ranges"      a range r of extent n used as r % c (c divides n) becomes r_hi*c + r_lo
//   "simplify ranges"   adjacent ranges of one END (any two of one REDUCE) of the same type merge
//                       into one when that adds no div/mod; a range every access guards by r < c
//                       shrinks to c
//   "postopt symbolic"  sym, range flattening, and REDUCE ranges the value does not use removed
//                       (ADD multiplies by their extent)
//
// flatten_range_rules(): END and REDUCE list the RANGEs of their range operands (after a split
// an operand is an expression of ranges), in the optimizer's order (axis type, then axis id).

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::opt {

const rewrite::PatternMatcher &flatten_range_rules();

UOp split_ranges(const UOp &sink);
UOp simplify_ranges(const UOp &sink);
UOp postopt_symbolic(const UOp &sink);

}  // namespace wavescope::compiler::opt
