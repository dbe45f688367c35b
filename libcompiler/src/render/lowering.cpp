// The shared lowering by the front half's target (lowering.hpp).

#include "wavescope/compiler/render/lowering.hpp"

#include <fmt/format.h>

#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/opt/target.hpp"

namespace wavescope::compiler::render {

lower::LoweredKernel lower_kernel(const UOp &sink, const opt::Target &target) {
  const char *host = target.name == "cpu" ? "cpu" : "c";
  const auto &render_target = lower::render_target(target.gpu ? target.name : host);
  return lower::lower(sink, render_target, target);
}

lower::LoweredKernel lower_kernel(const UOp &sink) { return lower_kernel(sink, opt::target("c")); }

std::string launch_text(const lower::Launch &dims) {
  return fmt::format("{}x{}x{} workgroups of {}x{}x{}", dims.workgroups[0], dims.workgroups[1],
                     dims.workgroups[2], dims.local[0], dims.local[1], dims.local[2]);
}

}  // namespace wavescope::compiler::render
