#include "wavescope/compiler/rewrite/tinygrad_names.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "wavescope/compiler/ir/ops.hpp"

namespace wavescope::compiler::rewrite::tinygrad {
namespace {

// tinygrad's Ops in declaration order, numbered from 1 by FastEnum, are libcompiler's Op (ops.hpp
// lists them in the same order, from 0).
static_assert(kOpCount == 80, "libcompiler's Op must stay tinygrad's Ops, in its order");

// AxisType (a plain Enum, from 1) in tinygrad's order, which is libcompiler's.
constexpr std::array<AxisType, 12> kAxisTypes = {
    AxisType::Device, AxisType::Global,      AxisType::Warp,        AxisType::Local,
    AxisType::Weak,   AxisType::GroupReduce, AxisType::Reduce,      AxisType::Upcast,
    AxisType::Unroll, AxisType::Thread,      AxisType::Placeholder, AxisType::Loop};

// AddrSpace (an IntEnum, from 1).
constexpr std::array<std::pair<std::string_view, AddrSpace>, 4> kAddrSpaces = {
    {{"GLOBAL", AddrSpace::Global},
     {"LOCAL", AddrSpace::Local},
     {"REG", AddrSpace::Reg},
     {"ALU", AddrSpace::Alu}}};

struct DTypeName {
  std::string_view name;       // DType.name
  std::string_view attribute;  // dtypes.<attribute>
  std::optional<DType> dtype;  // ours, when libcompiler has it
};
const std::array<DTypeName, 22> kDTypes = {{
    {"void", "void", dtypes::void_},
    {"weakint", "weakint", dtypes::index},
    {"bool", "bool", dtypes::bool_},
    {"signed char", "int8", dtypes::int8},
    {"unsigned char", "uint8", dtypes::uint8},
    {"short", "int16", dtypes::int16},
    {"unsigned short", "uint16", dtypes::uint16},
    {"int", "int32", dtypes::int32},
    {"unsigned int", "uint32", dtypes::uint32},
    {"long", "int64", dtypes::int64},
    {"unsigned long", "uint64", dtypes::uint64},
    {"uint128", "_uint128", std::nullopt},
    {"uint256", "_uint256", std::nullopt},
    {"weakfloat", "weakfloat", dtypes::weakfloat},
    {"float8_e4m3", "fp8e4m3", dtypes::float8_e4m3},
    {"float8_e5m2", "fp8e5m2", dtypes::float8_e5m2},
    {"float8_e4m3fnuz", "fp8e4m3fnuz", dtypes::float8_e4m3fnuz},
    {"float8_e5m2fnuz", "fp8e5m2fnuz", dtypes::float8_e5m2fnuz},
    {"half", "half", dtypes::half},
    {"__bf16", "bfloat16", dtypes::bfloat16},
    {"float", "float", dtypes::float32},
    {"double", "double", dtypes::float64},
}};

}  // namespace

std::string op_name(std::int64_t value) {
  if (value >= 1 && value <= static_cast<std::int64_t>(kOpCount))
    return std::string(to_string(static_cast<Op>(value - 1)));
  return fmt::format("Ops({})", value);
}

std::optional<AxisType> axis_type(std::int64_t value) {
  if (value >= 1 && value <= static_cast<std::int64_t>(kAxisTypes.size()))
    return kAxisTypes[static_cast<std::size_t>(value - 1)];
  return std::nullopt;
}

std::optional<AddrSpace> addr_space(std::int64_t value) {
  if (value >= 1 && value <= static_cast<std::int64_t>(kAddrSpaces.size()))
    return kAddrSpaces[static_cast<std::size_t>(value - 1)].second;
  return std::nullopt;
}

std::string axis_type_name(std::int64_t value) {
  if (auto t = axis_type(value)) return fmt::format("AxisType.{}", to_string(*t));
  return fmt::format("AxisType({})", value);
}

std::string addr_space_name(std::int64_t value) {
  if (value >= 1 && value <= static_cast<std::int64_t>(kAddrSpaces.size()))
    return fmt::format("AddrSpace.{}", kAddrSpaces[static_cast<std::size_t>(value - 1)].first);
  return fmt::format("AddrSpace({})", value);
}

std::optional<DType> dtype_named(std::string_view name) {
  for (const auto &d : kDTypes)
    if (d.name == name) return d.dtype;
  return std::nullopt;
}

std::string dtypes_attribute(std::string_view name) {
  for (const auto &d : kDTypes)
    if (d.name == name) return std::string(d.attribute);
  return std::string(name);
}

}  // namespace wavescope::compiler::rewrite::tinygrad
