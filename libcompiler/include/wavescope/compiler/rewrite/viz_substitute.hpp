#pragma once
// tinygrad's UOp.substitute, the substitution VIZ replays a recorded rewrite with (spec viz.md
// a.4): a bottom-up graph_rewrite whose only rule is "a node found in the map becomes its
// value". Unlike compiler::substitute, a replacement is itself substituted again until it is
// not in the map (a fixed point), and then its sources are walked too; a node whose sources
// changed is rebuilt (its dtype re-derived when a source's dtype changed) and looked up again.
// With `walk` it is tinygrad's single pass instead: a node found in the map is replaced as is.
// Without `enter_calls` the body of a FUNCTION, and of a CALL of a SINK, PROGRAM, LINEAR, COPY
// or CUSTOM_FUNCTION, is left alone.

#include <unordered_map>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::rewrite {

// Throws Error(BadInput) where tinygrad raises: a replacement chain that loops, or a graph that
// keeps growing (tinygrad's REWRITE_STACK_LIMIT, 250,000 pending nodes).
UOp viz_substitute(const UOp &root, const std::unordered_map<UOp, UOp> &replacements, bool walk,
                   bool enter_calls);

}  // namespace wavescope::compiler::rewrite
