#pragma once
// A kernel compiled for one of the host targets and ready to run: "c" (the C backend and the
// system C compiler) or "cpu" (LLVM IR compiled in process by ORC LLJIT).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/variables.hpp"

namespace wavescope::compiler::codegen {

// Runs the compiled kernel on host buffers in slot order (written buffers receive the results).
using HostRunner = std::function<void(std::vector<kernel::HostBuffer> &)>;

// Throws Error(Usage) for a target that is not a host target, and the backends' errors. The
// kernel's variables (kernel/variables.hpp) are passed as scalar arguments with the values of
// `variables` (bind_variables: the default value for one not given).
HostRunner compile_for_host(const UOp &sink, std::string_view target,
                            const kernel::VariableValues &variables = {});

// The same kernel run on buffers already in its parameters' element types (pointers in slot
// order): no conversion from and to the doubles of HostBuffer (benchmarks time the kernel alone).
using RawRunner = std::function<void(void **)>;
RawRunner compile_for_host_raw(const UOp &sink, std::string_view target);

// The host targets: {"c", "cpu"}.
const std::vector<std::string> &host_targets();

}  // namespace wavescope::compiler::codegen
