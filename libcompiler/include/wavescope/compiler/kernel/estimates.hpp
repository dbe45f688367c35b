#pragma once
// What a kernel costs, counted from its AST as tinygrad's Estimates count it: `ops` is every value
// ALU op (address arithmetic on index values is not counted) times the trip counts of the loops
// open around it, a REDUCE adding one op per accumulated element and MULACC two; `bytes` is the
// size of each buffer the kernel reads plus each it writes (a buffer read and written counts
// twice). Used for GFLOP/s and GB/s of runs.

#include <cstdint>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::kernel {

struct Estimates {
  std::uint64_t ops = 0;
  std::uint64_t bytes = 0;
};

// Throws Error(BadInput) naming the node for a graph that is not a kernel (validate_kernel).
Estimates estimate(const UOp &sink);

}  // namespace wavescope::compiler::kernel
