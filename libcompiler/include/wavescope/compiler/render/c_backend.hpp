#pragma once
// The C backend (spec §8.2): a kernel AST lowered for the "c" target (lower/lowering.hpp: every
// pass of spec §5.2 and the §7 linearizer), rendered from the linearized list as plain C11 that
// gcc and clang accept, compiled by the host C compiler (host_c_compiler) into a shared object in
// a temporary folder, loaded and run on host buffers.
//
// Rendering: `void NAME(T *restrict buf, ..., const int var, ...)` with the arguments in slot
// order, plus `void wavescope_entry(void **args)` taking a pointer per argument in slot order
// (a scalar's points to a long long). A RANGE opens `for (int Lidx0 = 0; ...) {`, its END closes
// it; IF/ENDIF wrap gated stores; REG buffers are arrays (`float buf0[1]`); vectors use
// `typedef float float4 __attribute__((vector_size(16)))` (gcc and clang both accept it) with
// `(float4){a, b, c, d}` to build and `v[k]` to select a lane; a vector access is
// `*((float4 *)(data+i))`. Single-use ALU expressions are inlined, other values are temporaries.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::render {

// The lowering for the C target (lower::lower with the "c" target). Throws Error(BadInput) for a
// graph that is not a kernel.
lower::LoweredKernel lower_for_c(const UOp &sink);

// C11 source of a lowered kernel. Throws Error(BadInput) for an op or dtype the C renderer does
// not support, naming it and its position in the list.
std::string render_c(const lower::LoweredKernel &kernel);

// The C compiler CKernel runs: $CC, else LLVM 22's clang, else clang when it is on PATH (as
// tinygrad's CPU device uses), else cc. Flags: -std=c11 -O2 -march=native (the kernels run on this
// host) -ffp-contract=off (no fused multiply-adds: every compiler computes the same bits).
std::string host_c_compiler();

// A C identifier for a kernel name (letters, digits, underscores).
std::string c_identifier(const std::string &name);

// A compiled and loaded kernel.
class CKernel {
public:
  // Compiles `source` with the system C compiler; compiler errors become Error(BadInput) with its
  // output. `scalars` are the kernel's scalar arguments (slot order), if any.
  static CKernel compile(const std::string &source, const std::vector<kernel::KernelParam> &params,
                         const std::vector<lower::ScalarParam> &scalars = {});
  CKernel(CKernel &&) noexcept;
  CKernel &operator=(CKernel &&) noexcept;
  ~CKernel();

  // Runs on host buffers (slot order) and scalar values (one per scalar argument, slot order);
  // written buffers receive the results.
  void run(std::vector<kernel::HostBuffer> &buffers,
           const std::vector<std::int64_t> &scalar_values = {}) const;
  // Runs on arguments already in the parameters' types (a pointer per argument, slot order).
  void run_raw(void **args) const;

private:
  CKernel() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wavescope::compiler::render
