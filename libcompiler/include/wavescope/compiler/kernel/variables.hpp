#pragma once
// A kernel's variables: the symbolic values (tinygrad's `Variable`s) a kernel takes by value, as
// PARAMs in the ALU address space without sources (ir/uop.hpp `variable`). The AST holds only a
// variable's bounds; its value is bound outside the kernel (tinygrad binds it per call), so a run
// chooses one: the given value, or by default the largest value in bounds that is a multiple of
// `multiple_of` (the buffers were sized for it, so it covers every element).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::kernel {

struct KernelVariable {
  std::string name;
  DType dtype;
  Int min = 0, max = 0;
  Int multiple_of = 1;
};

// The kernel's variables, one per name, sorted by name. Error(BadInput) for a variable without
// a name or bounds, or two variables of one name with different bounds.
std::vector<KernelVariable> kernel_variables(const UOp &sink);

// A value per variable name.
using VariableValues = std::map<std::string, std::int64_t>;

// The largest value in [min, max] that is a multiple of `multiple_of` (min when there is none).
std::int64_t default_value(const KernelVariable &v);

// A value for every variable of the kernel: `given` where it names one (Error(Usage) when the
// value is outside the bounds or not a multiple of `multiple_of`), default_value otherwise.
// Names in `given` that the kernel does not have are ignored (one --var serves many kernels).
VariableValues bind_variables(const UOp &sink, const VariableValues &given = {});

// "i=10 j=3" (empty for none).
std::string variables_text(const VariableValues &values);

// Parses "NAME=VALUE" (Error(Usage) naming `text` when it is not that).
std::pair<std::string, std::int64_t> parse_variable_assignment(const std::string &text);

// tinygrad's form of a variable into ours: tinygrad a9069c177a gives a variable PARAM one source,
// an empty STACK; ours has none. Other nodes are kept (the graph is returned unchanged when it
// has no such variable).
UOp variables_from_tinygrad(const UOp &sink);

}  // namespace wavescope::compiler::kernel
