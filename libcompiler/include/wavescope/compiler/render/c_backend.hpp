#pragma once
// The C backend: a kernel AST (kernel/kernel_ast.hpp) lowered by named graph_rewrite passes,
// rendered as plain C11 (spec §8.2), compiled by the system C compiler ($CC, else cc) into a
// shared object in a temporary folder, loaded and run on host buffers.
//
// The lowering is the shared one of lowering.hpp (lower_kernel).
// The renderer then walks the structure: END and REDUCE become loop nests (a REDUCE an
// accumulator, initialised with the identity before its loops), every value a named temporary.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::render {

// The lowering for the C target: lower_kernel (lowering.hpp). Throws Error(BadInput) for a graph
// that is not a kernel.
UOp lower_for_c(const UOp &sink);

// C11 source of a lowered kernel: `void NAME(T *restrict data0, ...)` plus an entry point
// `void wavescope_entry(void **args)` taking the buffers in slot order. Throws Error(BadInput)
// for an op or dtype the C renderer does not support, naming it.
std::string render_c(const UOp &lowered);

// The C compiler CKernel runs: $CC, else clang when it is on PATH (as tinygrad's CPU device
// uses), else cc. Flags: -std=c11 -O2 -march=native (the kernels run on this host)
// -ffp-contract=off (no fused multiply-adds: every compiler computes the same bits).
std::string host_c_compiler();

// A C identifier for a kernel name (letters, digits, underscores).
std::string c_identifier(const std::string &name);

// A compiled and loaded kernel.
class CKernel {
public:
  // Compiles `source` with host_c_compiler(); compiler errors become Error(BadInput) with its
  // output.
  static CKernel compile(const std::string &source, const std::vector<kernel::KernelParam> &params);
  CKernel(CKernel &&) noexcept;
  CKernel &operator=(CKernel &&) noexcept;
  ~CKernel();
  // Runs on host buffers (slot order); written buffers receive the results.
  void run(std::vector<kernel::HostBuffer> &buffers) const;
  // Runs on buffers already in the parameters' element types (pointers in slot order).
  void run_raw(void **args) const;

private:
  CKernel() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wavescope::compiler::render
