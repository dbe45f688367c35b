#pragma once
// A kernel AST lowered for one target, all the way: the front half (opt/front_half.hpp: stages
// 4-12, the optimizer with the KernelInfo's opts or the heuristic, remove reduces, local buffers,
// gpudims on GPU targets), the back half (passes.hpp: stages 13-27) and the §7 linearizer.
// Every pass is recorded in the active RewriteTrace.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/target.hpp"

namespace wavescope::compiler::opt {
struct Target;
}

namespace wavescope::compiler::lower {

// The launch of a GPU kernel, as its SPECIALs ask for it (x, y, z): gidxN extents are
// workgroup counts, lidxN extents work-items per workgroup. A CPU kernel is one work-item.
// The one launch type of the lowering, the renderers and the AMDGPU code objects.
struct Launch {
  std::array<std::int64_t, 3> workgroups{1, 1, 1};
  std::array<std::int64_t, 3> local{1, 1, 1};
  std::int64_t local_items() const { return local[0] * local[1] * local[2]; }
  std::int64_t total_items() const {
    return workgroups[0] * workgroups[1] * workgroups[2] * local_items();
  }
  bool operator==(const Launch &) const = default;
};

// A scalar kernel argument (a variable PARAM in the ALU address space).
struct ScalarParam {
  std::int64_t slot = 0;
  DType dtype;
  std::string name;
  Int min = 0, max = 0;
};

struct LoweredKernel {
  std::string name;                          // kernel_name after the optimizer's opts
  std::vector<kernel::KernelParam> buffers;  // global buffers, slot order (from the AST)
  std::vector<ScalarParam> scalars;          // variables, slot order
  UOp sink;                                  // the lowered graph
  std::vector<UOp> program;                  // the linearized list
  Launch launch;
  std::size_t local_bytes = 0;  // LOCAL buffers (group segment)
};

// Throws Error(BadInput) for a graph that is not a kernel (validate_kernel's message) and for
// a node a pass cannot lower, naming it.
LoweredKernel lower(const UOp &ast, const RenderTarget &target);
// The same with the front half's view of the target given (e.g. a GPU's opts run as loops on the
// host: opt::Target gfx1100 without its grid, rendered for "c").
LoweredKernel lower(const UOp &ast, const RenderTarget &target, const opt::Target &front);

// The lowered graph only (no linearizing), for `wavectl compile --emit ast --trace`.
UOp lower_to_sink(const UOp &ast, const RenderTarget &target);
UOp lower_to_sink(const UOp &ast, const RenderTarget &target, const opt::Target &front);

// The launch from the SPECIALs of a lowered graph.
Launch launch_of(const UOp &lowered);

}  // namespace wavescope::compiler::lower
