// Stage 23's renderer rules for 16-bit floats, the rule set "emulate non-native floats" that
// "final rewrite" runs with its own (passes.hpp), as tinygrad runs a renderer's extra_matcher.
//
// bfloat16 has no arithmetic on any of our targets (x86 without AVX512-BF16, AMDGPU before
// gfx950's few conversions): like tinygrad's create_non_native_float_pats + pm_manual_bf16_cast,
// every ALU on bfloat16 computes in float and rounds back, comparisons compare floats, and the
// float <-> bfloat16 casts are bit manipulations (round to nearest even), so no compiler intrinsic
// or libcall is needed. A bfloat16 value stays 16 bits in memory and between ops (BITCAST to and
// from uint16). Casts that x86 legalizes into compiler-rt libcalls, which the in-process JIT may
// not resolve (double -> half, double -> bfloat16, bfloat16 -> half), go through float.

#include <cmath>

#include "lower_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

constexpr DType kF32 = dtypes::float32;
constexpr DType kU32 = dtypes::uint32;
constexpr DType kU16 = dtypes::uint16;

UOp bits_as(const UOp &x, DType t) { return UOp::make(Op::BITCAST, t, {x}, t); }
UOp u32(std::int64_t v) { return const_int(v, kU32); }

// A constant's value as a double (ints and bools exactly).
double value_of(const UOp &c) {
  if (auto f = std::get_if<FloatValue>(&c.arg())) return f->value;
  if (auto b = std::get_if<bool>(&c.arg())) return *b ? 1.0 : 0.0;
  if (auto i = c.const_value()) return static_cast<double>(*i);
  return std::nan("");
}

// float -> bfloat16 by its bits: a finite value rounds to nearest even on the upper half (a carry
// into the exponent makes infinity); infinity keeps its bits; a NaN whose payload is only in the
// low half gets a mantissa bit so it stays a NaN.
UOp float_to_bf16(const UOp &x) {
  const UOp b = bits_as(x, kU32);
  const UOp finite = ne(bit_and(b, u32(0x7f800000)), u32(0x7f800000));
  const UOp odd = bit_and(shr(b, u32(16)), u32(1));
  const UOp rounded = b + u32(0x7fff) + odd;
  const UOp low = ne(bit_and(b, u32(0xffff)), u32(0));
  const UOp nan_kept = where(low, bit_or(b, u32(0x10000)), b);
  const UOp upper = shr(where(finite, rounded, nan_kept), u32(16));
  return bits_as(cast(upper, kU16), dtypes::bfloat16);
}

// bfloat16 -> float: its 16 bits are the float's upper half.
UOp bf16_to_float(const UOp &x) {
  const UOp b = cast(bits_as(x, kU16), kU32);
  return bits_as(shl(b, u32(16)), kF32);
}

}  // namespace

bool needs_float_emulation(const UOp &graph) {
  for (const UOp &u : toposort(graph)) {
    if (u.dtype().scalar == ScalarType::BFloat16) return true;
    if (u.dtype().scalar == ScalarType::Half)
      for (const UOp &s : u.src())
        if (s.dtype().scalar == ScalarType::Double) return true;
  }
  return false;
}

const PatternMatcher &detail::float_emulation_rules() {
  static const PatternMatcher pm(
      "emulate non-native floats",
      {
          // constants first: a cast of a constant is the constant rounded to the new dtype
          rule("CAST(float, bf16 const) -> float const",
               pat(Op::CAST, {cvar("c", dtypes::bfloat16)}).dtype(kF32),
               [](const Match &m) { return const_float(value_of(m["c"]), kF32); }),
          rule("CAST(bf16, const) -> bf16 const",
               pat(Op::CAST, {cvar("c")}).dtype(dtypes::bfloat16),
               [](const Match &m) -> UOp {
                 if (m["c"].is_invalid()) return {};
                 return const_float(value_of(m["c"]), dtypes::bfloat16);
               }),
          // libcalls on x86: through float
          rule("CAST(half|bf16, double x) -> through float",
               pat(Op::CAST, {var("x", dtypes::float64)})
                   .dtype({dtypes::half, dtypes::bfloat16})
                   .named("c"),
               [](const Match &m) { return cast(cast(m["x"], kF32), m["c"].dtype()); }),
          // bfloat16 ALU in float
          rule("where(b, x, y) of bf16 -> where on floats, cast back",
               pat(Op::WHERE, {var("b"), var("x"), var("y")}).dtype(dtypes::bfloat16),
               [](const Match &m) {
                 return cast(where(m["b"], cast(m["x"], kF32), cast(m["y"], kF32)),
                             dtypes::bfloat16);
               }),
          rule("ALU of bf16 -> in float, cast back",
               pat_any_src(ops::kAlu - OpSet{Op::WHERE}).dtype(dtypes::bfloat16).named("u"),
               [](const Match &m) {
                 const UOp &u = m["u"];
                 std::vector<UOp> src;
                 for (const UOp &s : u.src()) src.push_back(cast(s, kF32));
                 return cast(UOp::make(u.op(), kF32, std::move(src), u.arg()), dtypes::bfloat16);
               }),
          rule("comparison of bf16s -> of floats",
               pat(ops::kComparison, {var("x", dtypes::bfloat16), var("y", dtypes::bfloat16)})
                   .dtype(dtypes::bool_)
                   .named("u"),
               [](const Match &m) {
                 return UOp::make(m["u"].op(), dtypes::bool_,
                                  {cast(m["x"], kF32), cast(m["y"], kF32)});
               }),
          // casts between bfloat16 and anything but float go through float
          rule("CAST(bf16, x not float) -> CAST(bf16, CAST(float, x))",
               pat(Op::CAST, {var("x")}).dtype(dtypes::bfloat16),
               [](const Match &m) -> UOp {
                 if (m["x"].dtype() == kF32) return {};
                 return cast(cast(m["x"], kF32), dtypes::bfloat16);
               }),
          rule("CAST(t not float, bf16 x) -> CAST(t, CAST(float, x))",
               pat(Op::CAST, {var("x", dtypes::bfloat16)}).named("c"),
               [](const Match &m) -> UOp {
                 if (m["c"].dtype() == kF32) return {};
                 return cast(cast(m["x"], kF32), m["c"].dtype());
               }),
          // and those two by their bits
          rule("CAST(float, bf16 x) -> bits of x << 16",
               pat(Op::CAST, {var("x", dtypes::bfloat16)}).dtype(kF32),
               [](const Match &m) { return bf16_to_float(m["x"]); }),
          rule("CAST(bf16, float x) -> upper half rounded to nearest even",
               pat(Op::CAST, {var("x", kF32)}).dtype(dtypes::bfloat16),
               [](const Match &m) { return float_to_bf16(m["x"]); }),
          rule("BITCAST(uint16, BITCAST(bf16, x uint16)) -> x",
               pat(Op::BITCAST, {pat(Op::BITCAST, {var("x", kU16)}).dtype(dtypes::bfloat16)})
                   .dtype(kU16),
               [](const Match &m) { return m["x"]; }),
      });
  return pm;
}

}  // namespace wavescope::compiler::lower
