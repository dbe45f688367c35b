// Host targets behind one call (host_kernel.hpp).

#include "wavescope/compiler/codegen/host_kernel.hpp"

#include <memory>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/cpu_jit.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"

namespace wavescope::compiler::codegen {

namespace {

// The value of each scalar argument (slot order), by the variable's name.
std::vector<std::int64_t> scalar_values(const std::vector<lower::ScalarParam> &scalars,
                                        const kernel::VariableValues &bound) {
  std::vector<std::int64_t> values;
  for (const auto &s : scalars) {
    auto it = bound.find(s.name);
    if (it == bound.end())
      throw Error(
          ErrorKind::BadInput,
          fmt::format("the kernel's scalar argument '{}' is no variable of its AST", s.name));
    values.push_back(it->second);
  }
  return values;
}

}  // namespace

HostRunner compile_for_host(const UOp &sink, std::string_view target,
                            const kernel::VariableValues &variables) {
  const auto bound = kernel::bind_variables(sink, variables);
  if (target == "c") {
    const auto lowered = render::lower_for_c(sink);
    auto k = std::make_shared<render::CKernel>(
        render::CKernel::compile(render::render_c(lowered), lowered.buffers, lowered.scalars));
    return [k, values = scalar_values(lowered.scalars, bound)](std::vector<kernel::HostBuffer> &b) {
      k->run(b, values);
    };
  }
  if (target == "cpu") {
    const auto lowered = lower::lower(sink, lower::render_target("cpu"));
    auto k = std::make_shared<CpuKernel>(
        CpuKernel::compile(render::render_llvm_ir(lowered), lowered.buffers, lowered.scalars));
    return [k, values = scalar_values(lowered.scalars, bound)](std::vector<kernel::HostBuffer> &b) {
      k->run(b, values);
    };
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
