#pragma once
// tinygrad's hand-coded optimizations (spec §6.3), without tensor cores (none of our targets has
// them for the float kernels they run):
//
//   1. matrix-vector shapes on GPUs: GROUP 8, LOCAL 4, UPCAST 4;
//   2. small outputs (<= 2048 elements) on GPUs: GROUPTOP 16 on the first reduce axis that takes
//      it, and nothing else;
//   3. small masked output axes (<= 7, in where gates) upcast whole;
//   4. while the output has >= 1024 elements and fewer than 32 lanes are upcast: UPCAST 3 or 4 the
//      output axis that some buffer broadcasts along, fewest/smallest strides first;
//   5. the last reduce axis unrolled whole when <= 32 (and a second tiny one), else by 4;
//   6. nothing upcast yet: UPCAST the last output axis by 4;
//   7. GPUs: LOCAL sizes from {32 (axis 0), 16, 8, 4, 3, 2} for up to three GLOBAL axes,
//      broadcast axes first, at most 128 work-items;
//   8. targets with threads: THREAD the first loop axis that divides into ~128K ops per thread.

#include "wavescope/compiler/opt/scheduler.hpp"

namespace wavescope::compiler::opt {

// Applies the heuristic's opts to `k` (a copy of the caller's scheduler is a cheap snapshot).
void hand_coded_optimizations(Scheduler &k);

}  // namespace wavescope::compiler::opt
