#pragma once
// The reference interpreter: evaluates a kernel AST (kernel_ast.hpp) directly on host buffers,
// node by node, loop by loop. Slow and obviously right: the oracle compiled kernels are checked
// against. Values are held as doubles (floats, rounded to their dtype after every operation) or
// wide integers (wrapped to their dtype).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/variables.hpp"

namespace wavescope::compiler::kernel {

// One buffer argument's contents; every element held as a double (ints and bools exactly).
struct HostBuffer {
  DType dtype;
  std::vector<double> data;
};

// Runs the kernel. `buffers` are its parameters in slot order (kernel_params), each of the
// parameter's size. Throws Error(BadInput) naming the node for an out-of-bounds access, a
// division by zero or an op it cannot evaluate. The kernel's variables take `variables`' values
// (bind_variables: the default value for one not given; Error(Usage) for one out of bounds).
void interpret(const UOp &sink, std::vector<HostBuffer> &buffers,
               const VariableValues &variables = {});

// Buffers for the kernel's parameters: inputs random (floats uniform in [-1, 1), ints in
// [-8, 8), bools 0/1) from `seed`, outputs zero.
std::vector<HostBuffer> make_buffers(const std::vector<KernelParam> &params, std::uint64_t seed);

struct Comparison {
  double max_abs_err = 0, max_rel_err = 0;
  std::size_t mismatches = 0;  // elements over tolerance
  bool ok = true;
};
// The tolerance compiled kernels are held to.
inline constexpr double kDefaultAtol = 1e-4, kDefaultRtol = 1e-3;
// The tolerance a compiled kernel is held to: the default, widened to 8 ulps of 1.0 (8 times the
// machine epsilon) of the narrowest float the kernel computes in (half 2^-10, bfloat16 2^-7),
// since a compiled kernel may round a 16-bit value once more or less than the interpreter (a
// fused multiply-add, a sum in another order before the cast).
struct Tolerance {
  double atol = kDefaultAtol, rtol = kDefaultRtol;
};
Tolerance tolerance_for(const UOp &sink);

// Compares the written buffers of `got` with `want`: an element is within tolerance when
// |got - want| <= atol + rtol * |want| (NaN equals NaN).
Comparison compare_outputs(const std::vector<KernelParam> &params,
                           const std::vector<HostBuffer> &got, const std::vector<HostBuffer> &want,
                           double atol = kDefaultAtol, double rtol = kDefaultRtol);

// A compiled kernel checked against the interpreter: `run` (the compiled kernel, on buffers in
// slot order) and the interpreter each get the same random inputs from `seed` (make_buffers), and
// what they wrote is compared with the kernel's tolerance (tolerance_for). The interpreter binds
// the kernel's variables to `variables` (bind_variables); `run` must use the same values.
Comparison check_with_interpreter(const UOp &sink, std::uint64_t seed,
                                  const std::function<void(std::vector<HostBuffer> &)> &run,
                                  const VariableValues &variables = {});

}  // namespace wavescope::compiler::kernel
