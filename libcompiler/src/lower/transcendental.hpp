#pragma once
// The transcendental decompositions of stage 21 (passes.hpp), private to libcompiler/src/lower:
// float64 EXP2, LOG2 and SIN as polynomials, Cody-Waite and Payne-Hanek range reduction and bit
// operations on the float's representation, for a target that cannot render the op for float64
// (RenderTarget::float64_lacks; AMDGPU: LLVM 22 has no f64 exp2/log2/sin for it). POW is
// decomposed early into EXP2 and LOG2 where the target lacks it (decompositions.cpp).

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::lower::detail {

// exp2, log2, sin of a float64 value as graphs of basic ops.
UOp xexp2(const UOp &d);
UOp xlog2(const UOp &d);
UOp xsin(const UOp &d);

// The rules "transcendental decompositions" for the ops in target.float64_lacks; null when it
// lacks none. Built once per combination.
const rewrite::PatternMatcher *transcendental_rules(const RenderTarget &target);
// `late` with those rules added (cached), or `late` itself when the target lacks none.
const rewrite::PatternMatcher &with_transcendental_rules(const rewrite::PatternMatcher &late,
                                                         const RenderTarget &target);

}  // namespace wavescope::compiler::lower::detail
