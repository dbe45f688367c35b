#pragma once
// The lowering every backend shares: named graph_rewrite passes from a kernel AST to the form the
// renderers take (C, LLVM IR for the CPU and for AMDGPU), each pass recorded in the active
// RewriteTrace with its rules and their locations.
//
// The front half (opt/front_half.hpp, spec §5.2 stages 4-12): split ranges, initial symbolic,
// simplify ranges, apply_opts (the KernelInfo's opts, or the heuristic), postopt symbolic,
// expander, remove reduces, add local buffers, add gpudims (GPU targets), scalarize; then
//   "add loads"             every read INDEX(param, i) becomes LOAD(INDEX(...)) (stage 13)
//   "early decompositions"  FLOORDIV/FLOORMOD of non-negative operands by positive ones become
//                           the truncating CDIV/CMOD (stage 19); the rest keep helpers.

#include <array>
#include <cstdint>
#include <string>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::opt {
struct Target;
}

namespace wavescope::compiler::render {

// The launch of a GPU kernel: workgroups per dimension and work-items per workgroup (x, y, z).
struct LaunchDims {
  std::array<std::int64_t, 3> workgroups{1, 1, 1};
  std::array<std::int64_t, 3> local{1, 1, 1};
  std::int64_t local_items() const { return local[0] * local[1] * local[2]; }
  std::int64_t total_items() const {
    return workgroups[0] * workgroups[1] * workgroups[2] * local_items();
  }
};

// The lowering for `target` (opt/target.hpp); GPU targets also get the launch. Throws
// Error(BadInput) for a graph that is not a kernel (kernel::validate_kernel's message) and
// opt::InvalidOpt (BadInput) for explicit opts that do not apply.
UOp lower_kernel(const UOp &sink, const opt::Target &target, LaunchDims *launch = nullptr);
// The lowering for the host CPU (target "c").
UOp lower_kernel(const UOp &sink);

// "4x1x1 workgroups of 256x1x1"
std::string launch_text(const LaunchDims &dims);

}  // namespace wavescope::compiler::render
