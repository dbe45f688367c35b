#pragma once
// The names behind the numbers tinygrad's pickles store. A pickled enum member is its class and
// its value only, so the names come from tinygrad's source (tinygrad/uop/__init__.py Ops,
// tinygrad/uop/ops.py AxisType, tinygrad/dtype.py AddrSpace and dtypes, at commit a9069c17,
// the version that wrote ../shared/data/tinygrad-viz). Ops and AxisType follow libcompiler's
// enums one to one; a value beyond the table reads as "Ops(N)".

#include <optional>
#include <string>
#include <string_view>

#include "wavescope/compiler/ir/arg.hpp"
#include "wavescope/compiler/ir/dtype.hpp"

namespace wavescope::compiler::rewrite::tinygrad {

// Ops(value): "ADD", ... ("Ops(99)" when tinygrad's table has no such value).
std::string op_name(std::int64_t value);
// AxisType(value) and AddrSpace(value), when known.
std::optional<AxisType> axis_type(std::int64_t value);
std::optional<AddrSpace> addr_space(std::int64_t value);
std::string axis_type_name(std::int64_t value);
std::string addr_space_name(std::int64_t value);
// A tinygrad DType by its name ("unsigned int", "__bf16", "weakint", ...).
std::optional<DType> dtype_named(std::string_view name);
// The attribute of tinygrad's `dtypes` that a DType name is ("unsigned int" -> "uint32").
std::string dtypes_attribute(std::string_view name);

}  // namespace wavescope::compiler::rewrite::tinygrad
