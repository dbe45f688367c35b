#include "wavescope/compiler/ir/dtype.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "ir/dtype_traits.hpp"

namespace wavescope::compiler {
namespace {

constexpr std::size_t kScalarCount = static_cast<std::size_t>(ScalarType::Double) + 1;

struct ScalarInfo {
  std::string_view name;
  int priority;         // promotion priority (tinygrad's DType.priority)
  unsigned bits;        // 0 for void and the width-less types
  unsigned order_bits;  // bit size used for ordering: width-less types count as 800
};

constexpr std::array<ScalarInfo, kScalarCount> kScalars = {{
    {"void", -1, 0, 0},
    {"bool", 0, 1, 1},
    {"int8", 1, 8, 8},
    {"uint8", 2, 8, 8},
    {"int16", 3, 16, 16},
    {"uint16", 4, 16, 16},
    {"int32", 5, 32, 32},
    {"uint32", 6, 32, 32},
    {"int64", 7, 64, 64},
    {"uint64", 8, 64, 64},
    {"index", 0, 0, 800},
    {"weakfloat", 9, 0, 800},
    {"float8_e4m3", 10, 8, 8},
    {"float8_e5m2", 11, 8, 8},
    {"float8_e4m3fnuz", 10, 8, 8},
    {"float8_e5m2fnuz", 11, 8, 8},
    {"half", 12, 16, 16},
    {"bfloat16", 13, 16, 16},
    {"float", 14, 32, 32},
    {"double", 15, 64, 64},
}};

const ScalarInfo &info(ScalarType s) { return kScalars[static_cast<std::size_t>(s)]; }
constexpr std::uint32_t bit(ScalarType s) { return 1u << static_cast<unsigned>(s); }

// Direct parents in the promotion lattice (spec §1.5.2).
std::uint32_t lattice_parents(ScalarType s) {
  using S = ScalarType;
  switch (s) {
  case S::Bool: return bit(S::Index);
  case S::Index: return bit(S::Int8) | bit(S::UInt8);
  case S::Int8: return bit(S::Int16);
  case S::Int16: return bit(S::Int32);
  case S::Int32: return bit(S::Int64);
  case S::Int64: return bit(S::WeakFloat);
  case S::UInt8: return bit(S::Int16) | bit(S::UInt16);
  case S::UInt16: return bit(S::Int32) | bit(S::UInt32);
  case S::UInt32: return bit(S::Int64) | bit(S::UInt64);
  case S::UInt64: return bit(S::WeakFloat);
  case S::WeakFloat:
    return bit(S::Float8E4M3) | bit(S::Float8E5M2) | bit(S::Float8E4M3Fnuz) |
           bit(S::Float8E5M2Fnuz);
  case S::Float8E4M3:
  case S::Float8E5M2:
  case S::Float8E4M3Fnuz:
  case S::Float8E5M2Fnuz: return bit(S::Half) | bit(S::BFloat16);
  case S::Half:
  case S::BFloat16: return bit(S::Float);
  case S::Float: return bit(S::Double);
  case S::Double:
  case S::Void: return 0;
  }
  return 0;
}

std::uint32_t ancestors(ScalarType s) {
  std::uint32_t result = bit(s);
  std::uint32_t parents = lattice_parents(s);
  for (std::size_t i = 0; i < kScalarCount; ++i)
    if (parents & (1u << i)) result |= ancestors(static_cast<ScalarType>(i));
  return result;
}

int compare_scalar(ScalarType a, ScalarType b) {
  const auto &x = info(a), &y = info(b);
  if (x.priority != y.priority) return x.priority < y.priority ? -1 : 1;
  if (x.order_bits != y.order_bits) return x.order_bits < y.order_bits ? -1 : 1;
  if (x.name != y.name) return x.name < y.name ? -1 : 1;
  return 0;
}

struct FloatFormat {
  int mantissa_bits;
  int bias;
  double max_finite;
  bool has_infinity;
  bool saturates;  // out-of-range finite values clamp to max_finite (fp8)
  bool signed_zero;
};

std::optional<FloatFormat> float_format(ScalarType s) {
  using S = ScalarType;
  switch (s) {
  case S::Half: return FloatFormat{10, 15, 65504.0, true, false, true};
  case S::BFloat16: return FloatFormat{7, 127, 3.3895313892515355e38, true, false, true};
  case S::Float8E4M3: return FloatFormat{3, 7, 448.0, false, true, true};
  case S::Float8E5M2: return FloatFormat{2, 15, 57344.0, true, true, true};
  case S::Float8E4M3Fnuz: return FloatFormat{3, 8, 240.0, false, true, false};
  case S::Float8E5M2Fnuz: return FloatFormat{2, 16, 57344.0, false, true, false};
  default: return std::nullopt;
  }
}

double round_to_format(double v, const FloatFormat &f) {
  if (std::isnan(v)) return v;
  if (std::isinf(v)) {
    // Formats without an infinity have no value for it (spec §1.5.5: ±inf -> NaN).
    return f.has_infinity ? v : std::numeric_limits<double>::quiet_NaN();
  }
  const double a = std::fabs(v);
  if (a == 0) return f.signed_zero ? v : 0.0;
  const int min_exponent = 1 - f.bias;  // exponent of the smallest normal
  const int exponent = std::max(static_cast<int>(std::floor(std::log2(a))), min_exponent);
  const double quantum = std::ldexp(1.0, exponent - f.mantissa_bits);
  double r = std::nearbyint(a / quantum) * quantum;  // the default rounding mode: nearest even
  if (r > f.max_finite) {
    if (f.saturates)
      r = f.max_finite;
    else
      r = std::numeric_limits<double>::infinity();
  }
  if (r == 0 && !f.signed_zero) return 0.0;
  return std::copysign(r, v);
}

}  // namespace

std::string_view to_string(AddrSpace space) {
  switch (space) {
  case AddrSpace::None: return "none";
  case AddrSpace::Global: return "global";
  case AddrSpace::Local: return "local";
  case AddrSpace::Reg: return "reg";
  case AddrSpace::Alu: return "alu";
  }
  return "none";
}

std::optional<AddrSpace> parse_addrspace(std::string_view text) {
  for (auto s :
       {AddrSpace::None, AddrSpace::Global, AddrSpace::Local, AddrSpace::Reg, AddrSpace::Alu})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

int compare(DType a, DType b) {
  if (int c = compare_scalar(a.scalar, b.scalar)) return c;
  if (a.lanes != b.lanes) return a.lanes < b.lanes ? -1 : 1;
  if (a.addrspace != b.addrspace) return a.addrspace < b.addrspace ? -1 : 1;
  return 0;
}

bool is_bool(DType t) { return detail::is_bool(t); }

bool is_sized_int(DType t) { return detail::is_sized_int(t); }

bool is_int(DType t) { return detail::is_int(t); }

bool is_unsigned(DType t) {
  if (t.is_pointer()) return false;
  switch (t.scalar) {
  case ScalarType::UInt8:
  case ScalarType::UInt16:
  case ScalarType::UInt32:
  case ScalarType::UInt64: return true;
  default: return false;
  }
}

bool is_float(DType t) { return detail::is_float(t); }

bool is_weak(DType t) {
  return !t.is_pointer() && (t.scalar == ScalarType::Index || t.scalar == ScalarType::WeakFloat);
}

unsigned bit_width(ScalarType s) { return info(s).bits; }

unsigned byte_size(DType t) {
  if (t.is_pointer()) return 8;
  return (info(t.scalar).bits + 7) / 8 * t.lanes;
}

// The inline value ranges (ir/dtype_traits.hpp) agree with the widths of the table above.
static_assert([] {
  for (auto s = static_cast<std::size_t>(ScalarType::Int8);
       s <= static_cast<std::size_t>(ScalarType::UInt64); ++s) {
    const auto r = detail::scalar_range(static_cast<ScalarType>(s));
    if (r.hi - r.lo + 1 != Int(1) << kScalars[s].bits) return false;
  }
  return true;
}());

Int dtype_min(DType t) { return detail::value_range(t).lo; }

Int dtype_max(DType t) { return detail::value_range(t).hi; }

Int wrap_value(Int v, DType t) {
  if (!is_sized_int(t)) return v;
  return wrap_to_bits(v, bit_width(t.scalar), !is_unsigned(t));
}

DType least_upper_dtype(DType a, DType b) {
  if (a == b) return a;
  if (a.is_pointer() || b.is_pointer() || a.lanes != b.lanes) return a;
  if (a.scalar == ScalarType::Void) return b;
  if (b.scalar == ScalarType::Void) return a;
  const std::uint32_t common = ancestors(a.scalar) & ancestors(b.scalar);
  std::optional<ScalarType> best;
  for (std::size_t i = 0; i < kScalarCount; ++i) {
    if (!(common & (1u << i))) continue;
    const auto s = static_cast<ScalarType>(i);
    if (!best || compare_scalar(s, *best) < 0) best = s;
  }
  return {best.value_or(ScalarType::Double), a.lanes};
}

DType least_upper_float(DType t) {
  if (t.base() == dtypes::index) return {ScalarType::WeakFloat, t.lanes};
  if (is_float(t)) return t;
  return least_upper_dtype(t, DType(ScalarType::Float, t.lanes));
}

bool can_lossless_cast(DType from, DType to) {
  using S = ScalarType;
  if (from == to || is_bool(from)) return true;
  if (from.is_pointer() || to.is_pointer() || from.lanes != to.lanes) return false;
  const S f = from.scalar;
  auto any_of = [f](std::initializer_list<S> list) {
    for (S s : list)
      if (s == f) return true;
    return false;
  };
  const std::initializer_list<S> fp8s = {S::Float8E4M3, S::Float8E5M2, S::Float8E4M3Fnuz,
                                         S::Float8E5M2Fnuz};
  switch (to.scalar) {
  case S::Index: return is_sized_int(from);
  case S::Double:
    return any_of({S::Float, S::Half, S::BFloat16, S::UInt32, S::UInt16, S::UInt8, S::Int32,
                   S::Int16, S::Int8}) ||
           any_of(fp8s);
  case S::Float:
    return any_of({S::Half, S::BFloat16, S::UInt16, S::UInt8, S::Int16, S::Int8}) || any_of(fp8s);
  case S::Half: return any_of({S::UInt8, S::Int8}) || any_of(fp8s);
  case S::UInt64: return any_of({S::UInt32, S::UInt16, S::UInt8});
  case S::UInt32: return any_of({S::UInt16, S::UInt8});
  case S::UInt16: return f == S::UInt8;
  case S::Int64: return any_of({S::UInt32, S::UInt16, S::UInt8, S::Int32, S::Int16, S::Int8});
  case S::Int32: return any_of({S::UInt16, S::UInt8, S::Int16, S::Int8});
  case S::Int16: return any_of({S::UInt8, S::Int8});
  default: return false;
  }
}

double round_to_float(double v, DType t) {
  switch (t.scalar) {
  case ScalarType::Float: return static_cast<double>(static_cast<float>(v));
  case ScalarType::BFloat16:
    // bf16 is rounded from the float32 value (round to nearest even on its upper half).
    return round_to_format(static_cast<double>(static_cast<float>(v)), *float_format(t.scalar));
  default:
    if (auto format = float_format(t.scalar)) return round_to_format(v, *format);
    return v;  // double and weakfloat keep the value
  }
}

int mantissa_bits(DType t) {
  if (!is_float(t)) return 0;
  if (t.scalar == ScalarType::Float) return 23;
  if (auto f = float_format(t.scalar)) return f->mantissa_bits;
  return 52;  // double, weakfloat
}

std::uint16_t float16_bits(double v, DType t) {
  v = round_to_float(v, t.base());
  if (t.scalar == ScalarType::BFloat16) {
    const float f = std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(v);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    return static_cast<std::uint16_t>(bits >> 16);
  }
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return 0x7e00;
  v = std::fabs(v);
  if (std::isinf(v)) return sign | 0x7c00;
  if (v == 0) return sign;
  int e = 0;
  std::frexp(v, &e);  // v = m * 2^e with 0.5 <= m < 1: the exponent of v is e - 1
  if (e - 1 < -14)    // subnormal: a multiple of 2^-24
    return sign | static_cast<std::uint16_t>(std::ldexp(v, 24));
  const auto mantissa = static_cast<std::uint16_t>(std::ldexp(v, 11 - e) - 1024);
  return sign | static_cast<std::uint16_t>((e - 1 + 15) << 10) | mantissa;
}

double float16_value(std::uint16_t bits, DType t) {
  if (t.scalar == ScalarType::BFloat16) {
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float f = 0;
    std::memcpy(&f, &wide, sizeof f);
    return f;
  }
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

std::string_view scalar_name(ScalarType s) { return info(s).name; }

std::string to_string(DType t) {
  std::string text(scalar_name(t.scalar));
  if (t.lanes > 1) text += fmt::format(".vec({})", t.lanes);
  if (t.is_pointer()) text += fmt::format(".ptr({})", to_string(t.addrspace));
  return text;
}

std::optional<DType> parse_dtype(std::string_view text) {
  const std::size_t dot = text.find('.');
  const std::string_view head = text.substr(0, dot);
  std::optional<ScalarType> scalar;
  for (std::size_t i = 0; i < kScalarCount; ++i)
    if (kScalars[i].name == head) scalar = static_cast<ScalarType>(i);
  if (!scalar) return std::nullopt;
  DType t{*scalar};
  std::string_view rest = dot == std::string_view::npos ? std::string_view{} : text.substr(dot);
  while (!rest.empty()) {
    auto take = [&](std::string_view prefix) {
      if (rest.substr(0, prefix.size()) != prefix) return std::optional<std::string_view>{};
      const std::size_t close = rest.find(')');
      if (close == std::string_view::npos) return std::optional<std::string_view>{};
      const std::string_view inner = rest.substr(prefix.size(), close - prefix.size());
      rest.remove_prefix(close + 1);
      return std::optional<std::string_view>{inner};
    };
    if (auto lanes = take(".vec(")) {
      auto n = parse_int(*lanes);
      if (!n || *n < 1 || *n > 65535) return std::nullopt;
      t.lanes = static_cast<std::uint16_t>(*n);
    } else if (auto space = take(".ptr(")) {
      auto s = parse_addrspace(*space);
      if (!s || *s == AddrSpace::None) return std::nullopt;
      t.addrspace = *s;
    } else {
      return std::nullopt;
    }
  }
  return t;
}

}  // namespace wavescope::compiler
