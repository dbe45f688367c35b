#pragma once
// Whole-graph operations on UOp DAGs: traversal, substitution, structural order, text dump.

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler {

// Every node reachable from `root`, children before parents, visiting sources left to right
// (deterministic). With enter_calls false the body (src[0]) of FUNCTION and CALL is not entered.
std::vector<UOp> toposort(const UOp &root, bool enter_calls = true);

// `root` with every node found in `replacements` replaced (replacements are not entered), and
// every ancestor rebuilt. Returns `root` itself when nothing was found.
UOp substitute(const UOp &root, const std::unordered_map<UOp, UOp> &replacements);

// True when `node` is `root` or reachable from it.
bool in_graph(const UOp &root, const UOp &node);
// True when a node with one of `ops` is `root` or reachable from it.
bool graph_has_op(const UOp &root, OpSet ops);

// The canonical structural order (tinygrad's tuplize): op, then arg, then dtype, then the
// sources lexicographically. Negative, zero or positive like strcmp. Equal only for equal nodes.
int structural_compare(const UOp &a, const UOp &b);

// A process-independent identity for caches (compiled programs, kernel dedup): SHA-256 over the
// op, dtype, arg and tag texts and the children's keys (spec §1.2). Equal graphs have equal keys
// in every process; ids and pointers play no part.
using ContentKey = std::array<std::uint8_t, 32>;
ContentKey content_key(const UOp &root);
std::string to_hex(const ContentKey &key);

// A readable dump, one line per node in topological order:
//   %2 = MUL index (%0, %1)
//   %0 = PARAM index ParamArg(-1, index, a, [0, 8], alu)
std::string to_text(const UOp &root);

}  // namespace wavescope::compiler
