// Host targets behind one call (host_kernel.hpp).

#include "wavescope/compiler/codegen/host_kernel.hpp"

#include <memory>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/cpu_jit.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

namespace wavescope::compiler::codegen {

HostRunner compile_for_host(const UOp &sink, std::string_view target) {
  if (target == "c") {
    const auto lowered = render::lower_for_c(sink);
    auto k = std::make_shared<render::CKernel>(
        render::CKernel::compile(render::render_c(lowered), lowered.buffers, lowered.scalars));
    return [k](std::vector<kernel::HostBuffer> &b) { k->run(b); };
  }
  if (target == "cpu") {
    auto k = std::make_shared<CpuKernel>(CpuKernel::compile(sink));
    return [k](std::vector<kernel::HostBuffer> &b) { k->run(b); };
  }
  throw Error(ErrorKind::Usage,
              fmt::format("'{}' is not a host target (c or cpu)", std::string(target)));
}

RawRunner compile_for_host_raw(const UOp &sink, std::string_view target) {
  if (target == "c") {
    auto k = std::make_shared<render::CKernel>(render::CKernel::compile(
        render::render_c(render::lower_for_c(sink)), kernel::kernel_params(sink)));
    return [k](void **args) { k->run_raw(args); };
  }
  if (target == "cpu") {
    auto k = std::make_shared<CpuKernel>(CpuKernel::compile(sink));
    return [k](void **args) { k->run_raw(args); };
  }
  throw Error(ErrorKind::Usage,
              fmt::format("'{}' is not a host target (c or cpu)", std::string(target)));
}

const std::vector<std::string> &host_targets() {
  static const std::vector<std::string> t{"c", "cpu"};
  return t;
}

}  // namespace wavescope::compiler::codegen
