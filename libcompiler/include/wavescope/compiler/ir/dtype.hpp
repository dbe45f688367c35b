#pragma once
// Data types of IR nodes: an explicit, small descriptor {scalar kind, vector lanes, address space}.
//
// A DType with an address space is a pointer into that space (GLOBAL, LOCAL or REG memory); without
// one it is a value. `index` is the width-less integer of shape and index math (tinygrad's
// weakint), `weakfloat` its float counterpart; both take a concrete width only when lowered.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wavescope/compiler/ir/wide_int.hpp"

namespace wavescope::compiler {

enum class ScalarType : std::uint8_t {
  Void,
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Index,      // width-less integer (tinygrad: weakint, formerly dtypes.index)
  WeakFloat,  // width-less float literal type
  Float8E4M3,
  Float8E5M2,
  Float8E4M3Fnuz,
  Float8E5M2Fnuz,
  Half,
  BFloat16,
  Float,
  Double,
};

// Where a buffer lives. `Alu` marks scalar variables (kernel arguments passed by value).
enum class AddrSpace : std::uint8_t { None, Global, Local, Reg, Alu };

std::string_view to_string(AddrSpace space);
std::optional<AddrSpace> parse_addrspace(std::string_view text);

struct DType {
  ScalarType scalar = ScalarType::Void;
  std::uint16_t lanes = 1;                // > 1: a vector of that many elements
  AddrSpace addrspace = AddrSpace::None;  // != None: a pointer into that address space

  constexpr DType() = default;
  constexpr DType(ScalarType s, std::uint16_t n = 1, AddrSpace a = AddrSpace::None)
      : scalar(s), lanes(n), addrspace(a) {}

  constexpr DType vec(std::uint16_t n) const { return {scalar, n, addrspace}; }
  constexpr DType ptr(AddrSpace space) const { return {scalar, lanes, space}; }
  // The element value type: no lanes, no pointer.
  constexpr DType base() const { return {scalar, 1, AddrSpace::None}; }
  constexpr bool is_pointer() const { return addrspace != AddrSpace::None; }
  constexpr bool is_vector() const { return lanes > 1; }

  friend constexpr bool operator==(DType a, DType b) {
    return a.scalar == b.scalar && a.lanes == b.lanes && a.addrspace == b.addrspace;
  }
  // Total order: promotion priority first (tinygrad's DType order), then lanes, then pointer.
  friend int compare(DType a, DType b);
};

namespace dtypes {
inline constexpr DType void_{ScalarType::Void};
inline constexpr DType bool_{ScalarType::Bool};
inline constexpr DType int8{ScalarType::Int8};
inline constexpr DType uint8{ScalarType::UInt8};
inline constexpr DType int16{ScalarType::Int16};
inline constexpr DType uint16{ScalarType::UInt16};
inline constexpr DType int32{ScalarType::Int32};
inline constexpr DType uint32{ScalarType::UInt32};
inline constexpr DType int64{ScalarType::Int64};
inline constexpr DType uint64{ScalarType::UInt64};
inline constexpr DType index{ScalarType::Index};
inline constexpr DType weakfloat{ScalarType::WeakFloat};
inline constexpr DType float8_e4m3{ScalarType::Float8E4M3};
inline constexpr DType float8_e5m2{ScalarType::Float8E5M2};
inline constexpr DType float8_e4m3fnuz{ScalarType::Float8E4M3Fnuz};
inline constexpr DType float8_e5m2fnuz{ScalarType::Float8E5M2Fnuz};
inline constexpr DType half{ScalarType::Half};
inline constexpr DType bfloat16{ScalarType::BFloat16};
inline constexpr DType float32{ScalarType::Float};
inline constexpr DType float64{ScalarType::Double};
}  // namespace dtypes

// Classification looks at the scalar kind of value types; pointers are none of these.
bool is_bool(DType t);
bool is_int(DType t);        // sized ints and index
bool is_sized_int(DType t);  // int8..uint64
bool is_unsigned(DType t);
bool is_float(DType t);  // fp8 variants, half, bfloat16, float, double, weakfloat
bool is_weak(DType t);   // index or weakfloat

unsigned bit_width(ScalarType s);  // 0 for void, 1 for bool, 0 for the width-less types
unsigned byte_size(DType t);       // of one value (all lanes); pointers count 8

// The value range of a dtype: two's complement for sized ints, 0..1 for bool, ±kIntInfinity for
// index and floats.
Int dtype_min(DType t);
Int dtype_max(DType t);

// Wraps an integer to a sized int dtype (two's complement); other dtypes pass it through.
Int wrap_value(Int v, DType t);

// The least upper bound in the promotion lattice (JAX style, spec §1.5.2). Vectors promote their
// elements when their lane counts agree; otherwise (and for pointers) `a` is returned.
DType least_upper_dtype(DType a, DType b);
// The smallest float at least as wide as `t` (weakfloat for index).
DType least_upper_float(DType t);
// True when every value of `from` is exactly representable in `to`.
bool can_lossless_cast(DType from, DType to);

// Rounds a double to the value grid of a float dtype (IEEE round to nearest even; fp8 formats
// saturate out-of-range finite values, formats without infinity map it to NaN).
double round_to_float(double v, DType t);
// The mantissa bits a float dtype stores (23 for float, 52 for double and weakfloat); 0 for a
// dtype that is not a float.
int mantissa_bits(DType t);

// The 16 bits of `v` rounded to half (IEEE binary16) or bfloat16 (the upper half of a float32,
// rounded to nearest even from the float), and the value of such bits. A NaN is a quiet NaN.
std::uint16_t float16_bits(double v, DType t);
double float16_value(std::uint16_t bits, DType t);

// "int32", "index", "float.vec(4)", "float.ptr(global)", "half.vec(2).ptr(local)".
std::string to_string(DType t);
std::string_view scalar_name(ScalarType s);
std::optional<DType> parse_dtype(std::string_view text);

}  // namespace wavescope::compiler
