#include "wavescope/compiler/ir/wide_int.hpp"

#include <algorithm>

namespace wavescope::compiler {

std::optional<Int> checked_add(Int a, Int b) {
  if (!is_finite(a) || !is_finite(b)) return std::nullopt;
  const Int r = a + b;  // cannot overflow: both below 2^126
  return is_finite(r) ? std::optional<Int>(r) : std::nullopt;
}

std::optional<Int> checked_sub(Int a, Int b) {
  if (!is_finite(a) || !is_finite(b)) return std::nullopt;
  const Int r = a - b;
  return is_finite(r) ? std::optional<Int>(r) : std::nullopt;
}

std::optional<Int> checked_mul(Int a, Int b) {
  if (!is_finite(a) || !is_finite(b)) return std::nullopt;
  Int r = 0;
  if (__builtin_mul_overflow(a, b, &r) || !is_finite(r)) return std::nullopt;
  return r;
}

Int saturating_add(Int a, Int b) {
  a = saturate(a);
  b = saturate(b);
  // An infinite operand dominates; -inf + +inf does not occur for well-formed bounds.
  if (!is_finite(a)) return a;
  if (!is_finite(b)) return b;
  return saturate(a + b);
}

Int saturating_mul(Int a, Int b) {
  a = saturate(a);
  b = saturate(b);
  if (a == 0 || b == 0) return 0;
  const bool negative = (a < 0) != (b < 0);
  if (!is_finite(a) || !is_finite(b)) return negative ? -kIntInfinity : kIntInfinity;
  Int r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return negative ? -kIntInfinity : kIntInfinity;
  return saturate(r);
}

Int floor_div(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Int floor_mod(Int a, Int b) { return a - floor_div(a, b) * b; }

Int trunc_div(Int a, Int b) { return a / b; }

Int trunc_mod(Int a, Int b) { return a % b; }

Int gcd(Int a, Int b) {
  a = abs_value(a);
  b = abs_value(b);
  while (b != 0) {
    const Int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Int wrap_to_bits(Int v, unsigned bits, bool is_signed) {
  const UInt mask = (UInt(1) << bits) - 1;
  UInt u = static_cast<UInt>(v) & mask;
  if (is_signed && (u >> (bits - 1)) != 0) return static_cast<Int>(u) - (Int(1) << bits);
  return static_cast<Int>(u);
}

std::string to_string(Int v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  UInt u = negative ? UInt(0) - static_cast<UInt>(v) : static_cast<UInt>(v);
  std::string digits;
  while (u != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<Int> parse_int(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  Int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value >= kIntInfinity) return std::nullopt;
  }
  return negative ? -value : value;
}

}  // namespace wavescope::compiler
