#pragma once
// Kernel ASTs as tinygrad's codegen receives them (spec §5.2), in libcompiler's IR:
//
//   SINK[KernelInfo](END(STORE(INDEX(PARAM, idx), value), RANGE...), ...)
//
// PARAM: a global buffer; dtype = element dtype, src = (CONST size), arg = ParamArg with its slot.
// RANGE: a loop index (src = extent). INDEX(param, idx) used as a value is a read (there are no
// LOADs yet); an index may be `where(valid, idx, invalid)` (a masked read gives 0). REDUCE:
// (value, range...) with ReduceArg{op}. The SINK's arg is ForeignArg{"KernelInfo", "KernelInfo(
// name='NAME', ...)"} as tinygrad's KernelInfo is read from a rewrites.pkl.
//
// JSON form (round-trips exactly): {"format": "wavescope-kernel-ast", "version": 1,
//   "nodes": [{"op": "CONST", "dtype": "index", "src": [], "arg": {"int": "4"}}, ...],
//   "root": N} with nodes in topological order (sources refer to earlier entries).

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::kernel {

// A global buffer argument of a kernel.
struct KernelParam {
  std::int64_t slot = 0;
  DType dtype;            // element dtype
  std::int64_t size = 0;  // elements
  std::string name;
  bool written = false;  // stored to
  UOp node;
};

// The SINK arg of a kernel called `name`.
Arg kernel_info(std::string_view name);
// The kernel's name from its SINK's KernelInfo ("kernel" when it has none); color escapes removed.
std::string kernel_name(const UOp &sink);
// The kernel's buffer parameters in slot order. Throws Error(BadInput) when a PARAM has no
// constant size or two PARAMs share a slot.
std::vector<KernelParam> kernel_params(const UOp &sink);

// For each node of `nodes` (in topological order), the RANGEs it depends on that are still open
// there (a REDUCE or END closes its own), sorted by address.
using OpenRanges = std::unordered_map<const UOpNode *, std::vector<const UOpNode *>>;
OpenRanges open_ranges(const std::vector<UOp> &nodes);

// Checks the structure (SINK root, END/STORE/INDEX/REDUCE/RANGE shapes, dtypes of ALU operands)
// and throws Error(BadInput) naming the node ("node 12 (STORE): ...") when it is not a kernel AST.
void validate_kernel(const UOp &sink);

// JSON text (pretty-printed with `indent` >= 0, compact with -1).
std::string kernel_to_json(const UOp &sink, int indent = 1);
// Reads kernel JSON; malformed input throws Error(BadInput) naming `origin` and the JSON path of
// the problem ("kernel.json: nodes[3].op: unknown op 'FOO'"). The result is validated.
UOp kernel_from_json(std::string_view text, std::string_view origin = "kernel AST");

// A readable text form: the name, the parameters and one line per node.
std::string kernel_to_text(const UOp &sink);

}  // namespace wavescope::compiler::kernel
