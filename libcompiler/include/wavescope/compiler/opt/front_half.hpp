#pragma once
// The front half of the lowering (spec §5.2 stages 4-12), each stage a named graph_rewrite pass
// recorded in the active rewrite trace with its rules and their source locations:
//
//   4  "split ranges"        range_passes.hpp
//   5  "initial symbolic"    sym
//   6  "simplify ranges"     range_passes.hpp
//   7  apply_opts            scheduler.hpp / heuristic.hpp ("shift ...", "flatten range" passes)
//   8  "postopt symbolic"    range_passes.hpp
//   9  "expander"            UPCAST/UNROLL ranges become vector lanes (+ "expander: drop tags")
//   10 "remove reduces"      REDUCE -> REG accumulator; GROUP_REDUCE -> LOCAL stage + 2nd reduce
//   11 "add local buffers"   LOCAL stages -> LOCAL BUFFER, stores, BARRIER, AFTER
//   12 "add gpudims"         GPU targets: GLOBAL/LOCAL/GROUP_REDUCE ranges -> SPECIAL ids
//
// and "scalarize" (not a tinygrad stage: until the back half devectorizes, the renderers get
// scalar graphs): vector values become their lanes, vector stores a GROUP of scalar stores.
// The IR these passes emit is fixed in docs/compiler.md, "IR after the front half".

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/opt/target.hpp"

namespace wavescope::compiler::opt {

// Stages 4-6 (split ranges, initial symbolic, simplify ranges): the kernel as the optimizer
// sees it; an opt's axis numbers refer to Scheduler(prepare_ranges(sink), target).rngs().
UOp prepare_ranges(const UOp &sink);
UOp expander(const UOp &sink);
UOp remove_reduces(const UOp &sink);
UOp add_local_buffers(const UOp &sink);
// GPU targets only (others: unchanged); `launch` receives the workgroup counts and sizes.
UOp add_gpudims(const UOp &sink, const Target &target, lower::Launch &launch);
UOp scalarize(const UOp &sink);

// Stages 4-12 in order, then scalarize. InvalidOpt for explicit opts that do not apply.
UOp lower_front_half(const UOp &sink, const Target &target, lower::Launch &launch);

}  // namespace wavescope::compiler::opt
