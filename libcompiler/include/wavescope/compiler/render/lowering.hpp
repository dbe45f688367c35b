#pragma once
// The lowering every backend shares: named graph_rewrite passes from a kernel AST to the form the
// renderers take (C, LLVM IR for the CPU and for AMDGPU), each pass recorded in the active
// RewriteTrace with its rules and their locations.
//
//   "initial symbolic"      the symbolic simplifier (sym) on the index math
//   "add loads"             every read INDEX(param, i) becomes LOAD(INDEX(...)) (spec §5.2 stage
//   13) "early decompositions"  FLOORDIV/FLOORMOD of non-negative operands by positive ones become
//                           the truncating CDIV/CMOD (stage 19); the rest keep helpers
// and, for GPU targets only,
//   "add gpudims"           up to three output loops become workgroup/work-item ids (SPECIAL
//                           gidxN/lidxN, stage 11): the innermost is x and gets the work-group
//                           size, so neighbouring work-items touch neighbouring elements.

#include <array>
#include <cstdint>
#include <string>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::render {

// The target-independent passes. Throws Error(BadInput) for a graph that is not a kernel
// (kernel::validate_kernel's message).
UOp lower_kernel(const UOp &sink);

// The launch of a GPU kernel: workgroups per dimension and work-items per workgroup (x, y, z).
struct LaunchDims {
  std::array<std::int64_t, 3> workgroups{1, 1, 1};
  std::array<std::int64_t, 3> local{1, 1, 1};
  std::int64_t local_items() const { return local[0] * local[1] * local[2]; }
  std::int64_t total_items() const {
    return workgroups[0] * workgroups[1] * workgroups[2] * local_items();
  }
};

// Work-items per workgroup at most (the x size is the largest power of two up to this dividing
// the innermost loop's extent).
inline constexpr std::int64_t kMaxLocalSize = 256;

// The "add gpudims" pass on a lowered kernel: the output loops shared by every store become
// SPECIAL(gidx0..2)*local + SPECIAL(lidx0) index math (a kernel whose stores loop differently,
// or has no loops, runs as one work-item). `dims` receives the launch.
UOp add_gpudims(const UOp &lowered, LaunchDims &dims);

// "4x1x1 workgroups of 256x1x1"
std::string launch_text(const LaunchDims &dims);

}  // namespace wavescope::compiler::render
