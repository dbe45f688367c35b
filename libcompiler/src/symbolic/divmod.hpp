#pragma once
// The general div/mod step (spec §4.3.6), shared by the divmod rules and recombination.

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::symbolic {

// The simplified form of an index FLOORDIV/FLOORMOD node, or a null UOp when no step applies.
UOp fold_divmod(const UOp &d);
// The same, memoized per thread.
UOp fold_divmod_cached(const UOp &d);

}  // namespace wavescope::compiler::symbolic
