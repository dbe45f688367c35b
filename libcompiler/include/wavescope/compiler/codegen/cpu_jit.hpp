#pragma once
// The host-CPU target: a kernel's LLVM IR (render/llvm_ir.hpp) optimized at -O2 and compiled in
// process with LLVM's ORC LLJIT for the host, then run on host buffers. No files, no external
// compiler.

#include <memory>
#include <string>
#include <vector>

#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::codegen {

class CpuKernel {
public:
  // Parses, verifies, optimizes and JIT-compiles `llvm_ir` (with a `wavescope_entry(ptr)` taking
  // the buffers in slot order). IR that does not parse or verify is Error(BadInput) with LLVM's
  // message and the line; a JIT failure Error(Internal).
  static CpuKernel compile(const std::string &llvm_ir,
                           const std::vector<kernel::KernelParam> &params);
  // lower_kernel, linearize, render_llvm_ir and compile.
  static CpuKernel compile(const UOp &sink);
  CpuKernel(CpuKernel &&) noexcept;
  CpuKernel &operator=(CpuKernel &&) noexcept;
  ~CpuKernel();
  // Runs on host buffers (slot order); written buffers receive the results.
  void run(std::vector<kernel::HostBuffer> &buffers) const;
  // Runs on buffers already in the parameters' element types (pointers in slot order).
  void run_raw(void **args) const;

private:
  CpuKernel();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wavescope::compiler::codegen
