#pragma once
// The integer of index arithmetic and range analysis: 128 bits, with checked operations.
//
// Index math in the IR is mathematical (unbounded in principle). 128 bits hold every value of every
// sized type (uint64 included) and every product of two int64 values, which covers real index
// math. Values at or beyond ±kIntInfinity stand for "unbounded": range analysis saturates there,
// and constant folding that would leave the finite range declines instead of wrapping.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wavescope::compiler {

__extension__ using Int = __int128;
__extension__ using UInt = unsigned __int128;

// Magnitudes at or above 2^126 are "infinite": sums of two finite values never overflow Int.
inline constexpr Int kIntInfinity = Int(1) << 126;

constexpr bool is_finite(Int v) { return v > -kIntInfinity && v < kIntInfinity; }

// Clamps to [-kIntInfinity, kIntInfinity].
constexpr Int saturate(Int v) {
  return v >= kIntInfinity ? kIntInfinity : v <= -kIntInfinity ? -kIntInfinity : v;
}

// Exact arithmetic on finite values; nullopt when an operand or the result is not finite.
std::optional<Int> checked_add(Int a, Int b);
std::optional<Int> checked_sub(Int a, Int b);
std::optional<Int> checked_mul(Int a, Int b);

// Saturating arithmetic for interval bounds: infinite operands and overflowing results give
// ±kIntInfinity (0 times anything is 0).
Int saturating_add(Int a, Int b);
Int saturating_mul(Int a, Int b);

// Floor division/modulo (Python semantics: the remainder has the divisor's sign) and truncating
// division/modulo (C semantics). The divisor must not be 0.
Int floor_div(Int a, Int b);
Int floor_mod(Int a, Int b);
Int trunc_div(Int a, Int b);
Int trunc_mod(Int a, Int b);

// Greatest common divisor of the magnitudes (gcd(0, 0) == 0).
Int gcd(Int a, Int b);
constexpr Int abs_value(Int v) { return v < 0 ? -v : v; }

// Two's complement wrap of `v` to `bits` bits (1..64), signed or unsigned.
Int wrap_to_bits(Int v, unsigned bits, bool is_signed);

std::string to_string(Int v);
// Decimal digits with an optional leading '-'; nullopt when malformed or not finite.
std::optional<Int> parse_int(std::string_view text);

constexpr bool fits_int64(Int v) { return v >= INT64_MIN && v <= INT64_MAX; }

}  // namespace wavescope::compiler
