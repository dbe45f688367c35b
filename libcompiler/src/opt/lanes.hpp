#pragma once
// Vector lanes of the front half: building vectors (STACK) and selecting lanes (INDEX of a value
// by a constant), folding the obvious cases.

#include <cstdint>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::opt::detail {

// A vector of the scalars `elements` (one element: itself).
UOp stack(const std::vector<UOp> &elements);
// `n` copies of the scalar `x`.
UOp broadcast(const UOp &x, std::size_t n);
// Lane k of `v`: v itself for a scalar, the element of a STACK, else INDEX(v, k) of the
// element dtype.
UOp lane(const UOp &v, std::size_t k);
// True for INDEX(value, const) selecting a lane of a vector value (not an access of a buffer).
bool is_lane_select(const UOp &u);
// True for buffers (PARAM, BUFFER, AFTER of one, STAGE): what an INDEX addresses.
bool is_buffer(const UOp &u);

}  // namespace wavescope::compiler::opt::detail
