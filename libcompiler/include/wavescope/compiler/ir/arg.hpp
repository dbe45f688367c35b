#pragma once
// The op-specific payload of a node (`arg`) and its free marking slot (`tag`): a tagged variant.
//
// Values compare and hash exactly: floats by bit pattern (so -0.0 != 0.0 and NaN == NaN, as
// interning needs), records field by field. Both fields are part of a node's identity.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "wavescope/compiler/ir/dtype.hpp"
#include "wavescope/compiler/ir/ops.hpp"
#include "wavescope/compiler/ir/wide_int.hpp"

namespace wavescope::compiler {

// The masked value: "no value, this lane is masked" (spec §1.6).
struct InvalidValue {
  friend constexpr bool operator==(InvalidValue, InvalidValue) { return true; }
};

// A float constant; equality is bit equality (NaNs are canonicalized when a constant is built).
struct FloatValue {
  double value = 0;
  friend bool operator==(FloatValue a, FloatValue b);
};

enum class AxisType : std::uint8_t {
  Device,
  Global,
  Warp,
  Local,
  Weak,
  GroupReduce,
  Reduce,
  Upcast,
  Unroll,
  Thread,
  Placeholder,
  Loop,
};
std::string_view to_string(AxisType type);
std::optional<AxisType> parse_axis_type(std::string_view text);
char axis_letter(AxisType type);  // g, l, R, u, ... as in kernel names

// A buffer or variable parameter (PARAM/BUFFER). Variables live in the ALU address space and carry
// an inclusive value range.
struct ParamArg {
  std::int64_t slot = -1;
  DType dtype;
  std::optional<std::pair<Int, Int>> bounds;  // [vmin, vmax] of a variable
  Int multiple_of = 1;                        // every value is a multiple of this
  std::string name;
  AddrSpace addrspace = AddrSpace::Global;
  // Fields of a foreign parameter that have no place above (tinygrad's device, axis, volatile),
  // as "name=value" text; empty for ours. Part of the identity, so such parameters stay apart.
  std::string extra;
  friend bool operator==(const ParamArg &, const ParamArg &) = default;
};

// A loop index. The name is only for printing (the expression syntax names its loop indices).
struct RangeArg {
  std::int64_t axis = 0;
  AxisType type = AxisType::Loop;
  std::string name;
  friend bool operator==(const RangeArg &, const RangeArg &) = default;
};

// REDUCE(op, number of leading axes reduced) and similar op-plus-count payloads.
struct ReduceArg {
  Op op = Op::ADD;
  std::int64_t axes = 0;
  friend bool operator==(const ReduceArg &, const ReduceArg &) = default;
};

using AxisList = std::vector<std::int64_t>;

// A payload read from a foreign trace (tinygrad's KernelInfo, ProgramInfo, CallInfo, a BINARY's
// bytes, ...) that has no type here: kept as its class and its text (the Python repr; for
// "bytes" the raw bytes), compared exactly, so nodes that differed there still differ.
struct ForeignArg {
  std::string type;
  std::string text;
  friend bool operator==(const ForeignArg &, const ForeignArg &) = default;
  friend bool operator<(const ForeignArg &a, const ForeignArg &b) {
    return a.type != b.type ? a.type < b.type : a.text < b.text;
  }
};

using Arg = std::variant<std::monostate,  // none
                         Int,             // integer constant, GETTUPLE index
                         bool,            // boolean constant
                         FloatValue,      // float constant
                         InvalidValue,    // the Invalid constant
                         DType,           // CAST/BITCAST target
                         std::string,     // names (SPECIAL), verbatim code (CUSTOM), error text
                         AxisList,        // axis tuples
                         ParamArg, RangeArg, ReduceArg,
                         ForeignArg>;  // a foreign payload (read from a tinygrad trace)

std::size_t hash_arg(const Arg &arg);
// A total order on args: the alternative first, then the value.
int compare_args(const Arg &a, const Arg &b);
// Numeric equality across int/bool/float constants (pattern constants match like Python's ==:
// 0 == false == 0.0); other alternatives compare exactly.
bool value_equals(const Arg &a, const Arg &b);
// A short human-readable rendering ("5", "true", "int32", "ParamArg(a, [0, 8])", ...).
std::string to_string(const Arg &arg);
bool is_none(const Arg &arg);

}  // namespace wavescope::compiler
