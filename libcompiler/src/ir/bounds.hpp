#pragma once
// Range analysis (vmin/vmax) of a node from its parts, computed once when the node is built.

#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler {

struct Interval {
  Int lo = 0, hi = 0;
};

// Conservative bounds from the children's bounds only (spec §1.7). Sized-int results whose
// mathematical interval leaves the dtype's range get the whole range (values wrap).
Interval compute_bounds(Op op, DType dtype, const std::vector<UOp> &src, const Arg &arg);

}  // namespace wavescope::compiler
