#pragma once
// Graph walks restricted to the subgraphs that hold some ops (private to libcompiler).

#include <vector>

#include "wavescope/compiler/ir/ops.hpp"
#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler {

// toposort(root) without the nodes whose subgraph holds none of `ops` (UOp::subtree_ops): the
// nodes that are, or lead to, a node with one of these ops, in the order toposort gives them.
// Subgraphs without them are not entered.
std::vector<UOp> toposort_having(const UOp &root, OpSet ops);

}  // namespace wavescope::compiler
