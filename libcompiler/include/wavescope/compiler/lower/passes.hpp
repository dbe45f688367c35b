#pragma once
// The back half of the lowering (spec §5.2 stages 13-27): named graph_rewrite passes from a
// kernel whose reduces are accumulators (stage 10) to the graph the linearizer orders. Each is
// recorded in the active RewriteTrace with its rules' names and source locations.
//
//   13 "expand broadcast / add loads"  scalars broadcast to their vector partners; every read of
//                                      GLOBAL/LOCAL/REG memory used as a value gets a LOAD
//   14 "devectorize"                   vector ALU/LOAD/STORE split into lanes (STACK of scalars,
//                                      GROUP of stores); lane selects of STACKs folded
//   15 "early symbolic", "memory coalescing"
//                                      loads/stores of consecutive elements become one vector
//                                      access SHRINK(buf, start, n) (n from the target's widths,
//                                      start a multiple of n)
//   16 "extra symbolic"
//   17 "lower all index dtypes"        every index node int32, or int64 where its value range or
//                                      an operand's does not fit; weak constants committed
//                                      (pre-order), then "fold lowered casts"
//   18 "final symbolic", "cast float alu operands"
//   19 "early decompositions"          x//2^k -> x>>k, x%2^k -> x&(2^k-1), other floor forms ->
//                                      truncating CDIV/CMOD (+ sign fix-up unless provably
//                                      non-negative), MAX -> where if the target lacks it,
//                                      THREEFRY -> 32-bit adds, xors and rotates
//   21 "late decompositions"           x*2^k -> x<<k, CDIV/CMOD by 2^k and by constants through
//                                      shifts and magic multiplies, x*-1 -> NEG, x+NEG(y) -> SUB,
//                                      !(x<c) -> c-1<x, (x!=y)!=true -> x==y, MULACC, FDIV
//   22 "move gates from index"         INDEX(buf, where(g, i, invalid)) under a LOAD -> gated LOAD
//                                      with alt 0, under a STORE -> gated STORE
//   23 "final rewrite"                 each END closes one RANGE; a leftover invalid becomes 0;
//                                      with the rule set "emulate non-native floats": bfloat16
//                                      ALU computed in float and rounded back, comparisons on
//                                      floats, float <-> bfloat16 casts by their bits (round to
//                                      nearest even); double -> half/bfloat16 and bfloat16 ->
//                                      half through float (x86 libcalls otherwise)
//   25 "add implicit barriers"         LOCAL read-after-write (AFTER) and write-after-read (loop)
//   26 "add control flow"              nested and sibling loops ordered through RANGE sources
//   27 "number params"                 variables without a slot get the next slots
// (20 "decomp dtypes" and 24 "casted consts" are not needed by our renderers.)

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/target.hpp"

namespace wavescope::compiler::lower {

UOp add_loads(const UOp &sink);
UOp devectorize(const UOp &sink);
UOp memory_coalescing(const UOp &sink, const RenderTarget &target);
UOp lower_index_dtypes(const UOp &sink);
UOp cast_float_alu_operands(const UOp &sink);
UOp early_decompositions(const UOp &sink, const RenderTarget &target);
UOp late_decompositions(const UOp &sink, const RenderTarget &target);
UOp move_gates_from_index(const UOp &sink);
// With `float_emulation` false, the final rewrite leaves out the "emulate non-native floats"
// rules: for a graph known to need none (needs_float_emulation), whose ALU and CAST nodes are
// then not offered to rules that cannot fire.
UOp final_rewrite(const UOp &sink, const RenderTarget &target, bool float_emulation = true);
UOp add_implicit_barriers(const UOp &sink);
UOp add_control_flow(const UOp &sink);
UOp number_params(const UOp &sink);

// Whether a kernel computes in bfloat16 or casts a double to half (the final rewrite's "emulate
// non-native floats" rules): a bfloat16 node, or a half node with a double source. The lowering
// asks this of the kernel AST, which is smaller than the graph the final rewrite sees and has
// the same float dtypes.
bool needs_float_emulation(const UOp &graph);

// Stages 13-27 in order (with the symbolic passes between them).
UOp lower_back_half(const UOp &sink, const RenderTarget &target, bool float_emulation = true);

}  // namespace wavescope::compiler::lower
