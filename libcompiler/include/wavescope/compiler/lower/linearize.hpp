#pragma once
// The linearizer (spec §7): a lowered kernel graph (lower_back_half's output) as the ordered list
// of nodes the renderers walk.
//
// Every node gets a run count (the product of the extents of the RANGEs it sits in) and a
// priority (PARAM -20 then by slot, REG buffers -18, LOCAL buffers -17, END -5, LOAD -1, default
// 0, STORE +1, RANGE +5); sorted by (run count, priority, slot), in graph order on ties, this is
// each node's ideal position. The list is then a reverse topological order from the SINK taken
// with a max-heap on that position (a node is placed once all its consumers are), reversed: as
// close to ideal as dependencies allow, so loop-invariant work is hoisted, loads go early, stores
// late, loops open late and close early. A RANGE opens a loop, the END naming it closes it.
// Finally every gated STORE(idx, value, gate) becomes IF(gate, idx), STORE(idx, value), ENDIF(IF)
// (IF/ENDIF exist only in this list).

#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::lower {

// Throws Error(BadInput) when `sink` is not a SINK.
std::vector<UOp> linearize(const UOp &sink);

// One line per node: "  12 STORE        void       (10, 11)" with the indices of its sources in
// the list (for tests and `wavectl compile --emit linear`).
std::string linear_to_text(const std::vector<UOp> &list);

}  // namespace wavescope::compiler::lower
