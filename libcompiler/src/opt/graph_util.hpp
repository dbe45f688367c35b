#pragma once
// Helpers of the front-half passes: ranges, their order, traced substitution.

#include <string>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::opt::detail {

// The optimizer's order of axis types (spec §1.4): DEVICE -2, WEAK/LOOP -1, GLOBAL/THREAD 0,
// WARP 1, LOCAL/GROUP_REDUCE 2, UPCAST 3, REDUCE 4, UNROLL 5.
int axis_pos(AxisType type);
const RangeArg &range_arg(const UOp &r);
AxisType axis_type(const UOp &r);
// (position of the type, axis id) as the optimizer sorts ranges.
bool range_before(const UOp &a, const UOp &b);

// The RANGE nodes reachable from `u` (u included), in topological order.
std::vector<UOp> ranges_in(const UOp &u);
// The RANGEs open at `u`: used by it and not closed by an END or REDUCE below it.
std::vector<UOp> open_ranges_of(const UOp &u);
// The constant extent of a range, or -1 when it is not a constant.
std::int64_t extent(const UOp &r);

// `root` with the map's nodes replaced, as a named graph_rewrite pass (one rule, "substitute")
// that also replaces keys inside the replacements. With `replacements_final` (no replacement
// holds a key) and no trace recording, the plain substitute of graph.hpp (same result, cheaper).
UOp substitute_pass(const UOp &root, const std::unordered_map<UOp, UOp> &map,
                    const std::string &name, bool replacements_final = false);

// The terms of a sum (x itself when it is not an ADD).
void split_add(const UOp &x, std::vector<UOp> &terms);
// The index of an INDEX without its gate (where(valid, idx, invalid) -> idx), and the gate (null
// when there is none).
UOp index_of(const UOp &idx);
UOp gate_of(const UOp &idx);

}  // namespace wavescope::compiler::opt::detail
