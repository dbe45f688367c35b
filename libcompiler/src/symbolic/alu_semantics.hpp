#pragma once
// The value semantics of integer/boolean ALU ops, shared by the evaluator and constant folding so
// that a folded constant is exactly what evaluation would give (spec §9.3).

#include "wavescope/compiler/symbolic/evaluate.hpp"

namespace wavescope::compiler::symbolic::detail {

// A binary op on two values; the result wraps to `dtype` when that is a sized int.
Value binary_value(Op op, DType dtype, const Value &a, const Value &b);
// A value converted by CAST to `to`.
Value cast_value(const Value &x, DType to);

}  // namespace wavescope::compiler::symbolic::detail
