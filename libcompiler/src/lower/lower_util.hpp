#pragma once
// Helpers the back-half passes share (private to libcompiler/src/lower).

#include <string>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::lower::detail {

// The PARAM or BUFFER a memory operand refers to (through AFTER), or a null UOp for a value.
UOp buffer_of(const UOp &u);
// Its address space (None for a value or an ALU variable).
AddrSpace addrspace_of(const UOp &u);
// True for INDEX/SHRINK into a buffer (an address), false for a lane select of a value.
bool is_address(const UOp &u);

// Lane k of a vector value: INDEX(x, k) with the element dtype; x itself when it is scalar.
UOp lane(const UOp &x, unsigned k);
// x repeated to `lanes` lanes (STACK(x, x, ...)); x itself when lanes is 1.
UOp broadcast(const UOp &x, unsigned lanes);

// The where(gate, idx, invalid) form of an index: (idx, gate) or (u, null).
std::pair<UOp, UOp> split_gate(const UOp &index_operand);

// The rule set "emulate non-native floats" (float_emulation.cpp) that "final rewrite" runs.
const rewrite::PatternMatcher &float_emulation_rules();

rewrite::RewriteOptions pass(const char *name);
// The same for a pass whose matcher is static and whose rules need no context (the simplifier's
// layers): the engine memoizes its fixed points (RewriteOptions::memoize).
rewrite::RewriteOptions symbolic_pass(const char *name);

}  // namespace wavescope::compiler::lower::detail
