#pragma once
// The lowering every backend shares, by the front half's target (opt/target.hpp): the front half
// (opt/front_half.hpp, spec §5.2 stages 4-12), the back half (lower/passes.hpp, stages 13-27) and
// the §7 linearizer (lower/lowering.hpp), each pass recorded in the active RewriteTrace.

#include <string>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::opt {
struct Target;
}

namespace wavescope::compiler::render {

// The lowering for `target` (opt/target.hpp), rendered for that GPU, or for the host ("cpu" is
// LLVM, anything else C: a GPU target without its grid runs its opts as loops). GPU targets
// also give the launch (LoweredKernel::launch). Throws Error(BadInput) for a graph that is not a
// kernel (kernel::validate_kernel's message) and opt::InvalidOpt (BadInput) for explicit opts that
// do not apply.
lower::LoweredKernel lower_kernel(const UOp &sink, const opt::Target &target);
// The lowering for the host CPU (target "c").
lower::LoweredKernel lower_kernel(const UOp &sink);

// "4x1x1 workgroups of 256x1x1"
std::string launch_text(const lower::Launch &dims);

}  // namespace wavescope::compiler::render
