#pragma once
// The rewrite engine's memo of fixed points (private to libcompiler/src/rewrite).
//
// A matcher whose rules are functions of the node alone (RewriteOptions::memoize) gets a slot,
// one bit of UOpNode::fixed_points, the first time it is used so. The bit on a node says that no
// rule of the matcher fires on any node of its graph, so a later rewrite with the matcher (or
// with one whose rules are a subset of its rules: those bits are set with it) can take the node
// as it is without visiting it. The bits carry a generation; forget_fixed_points() starts a new
// one, which makes every earlier bit void.

#include <cstdint>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::rewrite::detail {

struct MemoBits {
  std::uint64_t own = 0;      // the matcher's bit; 0 when it has no slot (they ran out)
  std::uint64_t implied = 0;  // its bit and those of the matchers whose rules are a subset
};

// The matcher's bits, registering it on first use. The matcher must live until the process ends.
MemoBits memo_bits(const PatternMatcher &matcher);

// True when the bit `own` is set on the node in the current generation.
bool is_fixed_point(const UOpNode *node, std::uint64_t own);
// Sets the bits `implied` on the node (in the current generation).
void mark_fixed_point(const UOpNode *node, std::uint64_t implied);

}  // namespace wavescope::compiler::rewrite::detail
