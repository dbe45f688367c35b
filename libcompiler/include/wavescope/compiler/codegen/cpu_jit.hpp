#pragma once
// The host-CPU target: a kernel's LLVM IR (render/llvm_ir.hpp) optimized at -O2 and compiled in
// process with LLVM's ORC LLJIT for the host, then run on host buffers. No files, no external
// compiler.

#include <memory>
#include <string>
#include <vector>

#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::codegen {

class CpuKernel {
public:
  // Parses, verifies, optimizes and JIT-compiles `llvm_ir` (with a `wavescope_entry(ptr)` taking
  // a pointer per argument in slot order). IR that does not parse or verify is Error(BadInput)
  // with LLVM's message and the line; a JIT failure Error(Internal).
  static CpuKernel compile(const std::string &llvm_ir,
                           const std::vector<kernel::KernelParam> &params,
                           const std::vector<lower::ScalarParam> &scalars = {});
  // lower::lower for "cpu", render_llvm_ir and compile.
  static CpuKernel compile(const UOp &sink);
  CpuKernel(CpuKernel &&) noexcept;
  CpuKernel &operator=(CpuKernel &&) noexcept;
  ~CpuKernel();
  // Runs on host buffers (slot order) and scalar values (slot order); written buffers receive
  // the results.
  void run(std::vector<kernel::HostBuffer> &buffers,
           const std::vector<std::int64_t> &scalar_values = {}) const;
  // Runs on arguments already in the parameters' types (a pointer per argument, slot order).
  void run_raw(void **args) const;

private:
  CpuKernel();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wavescope::compiler::codegen
