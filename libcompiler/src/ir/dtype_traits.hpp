#pragma once
// The dtype predicates and value ranges, inline for the hot paths inside libcompiler (value
// bounds of every node built); dtype.cpp's exported is_bool, is_sized_int, is_int, is_float,
// dtype_min and dtype_max are these.

#include <array>

#include "wavescope/compiler/ir/dtype.hpp"

namespace wavescope::compiler::detail {

constexpr bool is_bool(DType t) { return !t.is_pointer() && t.scalar == ScalarType::Bool; }

constexpr bool is_sized_int(DType t) {
  return !t.is_pointer() && t.scalar >= ScalarType::Int8 && t.scalar <= ScalarType::UInt64;
}

constexpr bool is_int(DType t) {
  return detail::is_sized_int(t) || (!t.is_pointer() && t.scalar == ScalarType::Index);
}

constexpr bool is_float(DType t) { return !t.is_pointer() && t.scalar >= ScalarType::WeakFloat; }

struct ValueRange {
  Int lo, hi;
};

// The value range of a scalar type (not a pointer): the sized ints are Int8, UInt8, ... UInt64
// in pairs of widths 8, 16, 32, 64, signed first.
constexpr ValueRange scalar_range(ScalarType s) {
  if (s == ScalarType::Bool) return {0, 1};
  if (s == ScalarType::Void) return {0, 0};
  if (s >= ScalarType::Int8 && s <= ScalarType::UInt64) {
    const unsigned k = static_cast<unsigned>(s) - static_cast<unsigned>(ScalarType::Int8);
    const unsigned bits = 8u << (k / 2);
    if (k % 2 == 1) return {0, (Int(1) << bits) - 1};
    return {-(Int(1) << (bits - 1)), (Int(1) << (bits - 1)) - 1};
  }
  return {-kIntInfinity, kIntInfinity};
}

inline constexpr std::size_t kScalarTypes = static_cast<std::size_t>(ScalarType::Double) + 1;

inline constexpr std::array<ValueRange, kScalarTypes> kScalarRanges = [] {
  std::array<ValueRange, kScalarTypes> out{};
  for (std::size_t i = 0; i < kScalarTypes; ++i) out[i] = scalar_range(static_cast<ScalarType>(i));
  return out;
}();

// Pointers are unbounded, whatever they point to.
constexpr ValueRange value_range(DType t) {
  if (t.is_pointer()) return {-kIntInfinity, kIntInfinity};
  return kScalarRanges[static_cast<std::size_t>(t.scalar)];
}

}  // namespace wavescope::compiler::detail
