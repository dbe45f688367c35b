#pragma once
// The rewrite engine's memo of fixed points (private to libcompiler/src/rewrite).
//
// A matcher whose rules are functions of the node alone (RewriteOptions::memoize) gets a slot,
// one bit of UOpNode::fixed_points, the first time it is used so. The bit on a node says that no
// rule of the matcher fires on any node of its graph, so a later rewrite with the matcher, or
// with one whose rules are a subset of its rules, can take the node as it is without visiting
// it. Which bits prove a fixed point of a matcher is worked out when it asks (memo_bits), so a
// matcher registered after a wider one marked nodes still uses those marks. The bits carry a
// generation; forget_fixed_points() starts a new one, which makes every earlier bit void.

#include <cstdint>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::rewrite::detail {

struct MemoBits {
  std::uint64_t own = 0;  // the matcher's bit, set on its fixed points; 0 when slots ran out
  // The bits that prove a fixed point of it: its own and those of the matchers with a superset
  // of its rules.
  std::uint64_t accepted = 0;
};

// The matcher's bits, registering it on first use. The matcher must live until the process ends.
MemoBits memo_bits(const PatternMatcher &matcher);

// True when one of the bits `accepted` is set on the node in the current generation.
bool is_fixed_point(const UOpNode *node, std::uint64_t accepted);
// Sets the bit `own` on the node (in the current generation).
void mark_fixed_point(const UOpNode *node, std::uint64_t own);

}  // namespace wavescope::compiler::rewrite::detail
