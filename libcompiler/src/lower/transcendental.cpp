// Stage 21's transcendental decompositions (transcendental.hpp): float64 exp2, log2 and sin built
// from adds, multiplies, compares, selects, casts and integer operations on the float's bits.
//
// exp2 and log2 follow the approach of Shibata and Petrogalli (SLEEF, arXiv:2001.09258) that
// tinygrad's decomposition uses: exp2 rounds to q = round(x), evaluates a polynomial of x - q
// and scales by 2^q through the exponent field; log2 splits x = m * 2^e with m in [0.75, 1.5)
// and evaluates an odd polynomial of (m-1)/(m+1). sin reduces the argument modulo pi: Cody-Waite
// with pi in four parts below 2^22, above that a Payne-Hanek reduction that multiplies the whole
// 53-bit mantissa by a 192-bit window of 1/pi (1184 bits in the table: every finite double); the
// reduced r in [-pi/2, pi/2] goes through an odd polynomial. Measured against libm
// (tests/compiler/lower/test_transcendental.cpp): exp2 1 ulp, log2 3, sin 2.

#include "transcendental.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/pattern.hpp"

namespace wavescope::compiler::lower::detail {
namespace {

using namespace rewrite;

constexpr DType F = dtypes::float64, I = dtypes::int64, U = dtypes::uint64;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

UOp fc(double v) { return const_float(v, F); }
UOp ic(Int v) { return const_int(v, I); }
UOp uc(Int v) { return const_int(v, U); }
UOp bin(Op op, const UOp &a, const UOp &b) { return UOp::make(op, a.dtype(), {a, b}); }
UOp add(const UOp &a, const UOp &b) { return bin(Op::ADD, a, b); }
UOp sub(const UOp &a, const UOp &b) { return bin(Op::SUB, a, b); }
UOp mul(const UOp &a, const UOp &b) { return bin(Op::MUL, a, b); }
UOp conv(const UOp &x, DType t) { return UOp::make(Op::CAST, t, {x}, t); }
UOp bits(const UOp &x, DType t) { return UOp::make(Op::BITCAST, t, {x}, t); }
UOp unary(Op op, const UOp &x) { return UOp::make(op, x.dtype(), {x}); }

// c[0]*x^(n-1) + ... + c[n-1] by Horner's rule.
template <std::size_t N> UOp poly(const UOp &x, const std::array<double, N> &c) {
  UOp acc = fc(c[0]);
  for (std::size_t i = 1; i < N; ++i) acc = add(mul(acc, x), fc(c[i]));
  return acc;
}

// x rounded to the nearest integer, halves away from zero, as int64 (|x| < 2^62).
UOp round_away(const UOp &x) { return conv(add(x, where(lt(x, fc(0)), fc(-0.5), fc(0.5))), I); }

// 2^k as a double for -1022 <= k <= 1023: k + 1023 in the exponent field.
UOp pow2i(const UOp &k) { return bits(shl(add(k, ic(1023)), ic(52)), F); }

// u * 2^q for -2100 < q < 1100 in two normal steps (2^q itself may not be a double).
UOp scale(const UOp &u, const UOp &q) {
  const UOp half = shr(q, ic(1));  // floor(q / 2)
  return mul(mul(u, pow2i(half)), pow2i(sub(q, half)));
}

// exp2 on [-1/2, 1/2]: 12 terms, < 1 ulp (SLEEF's xexp2 coefficients).
constexpr std::array<double, 12> kExp2{
    0.4434359082926529454e-9, 0.7073164598085707425e-8, 0.1017819260921760451e-6,
    0.1321543872511327615e-5, 0.1525273353517584730e-4, 0.1540353045101147808e-3,
    0.1333355814670499073e-2, 0.9618129107597600536e-2, 0.5550410866482046596e-1,
    0.2402265069591012214e+0, 0.6931471805599452862e+0, 0.1000000000000000000e+1};

// (log2((1+x)/(1-x)) - 2x/ln2) / x^3 in x^2 for |x| < 0.2 (SLEEF's xlog2).
constexpr std::array<double, 7> kLog2{0.2211941750456081490e+0, 0.2200768693152277689e+0,
                                      0.2623708057488514656e+0, 0.3205977477944495502e+0,
                                      0.4121985945485324709e+0, 0.5770780162997058982e+0,
                                      0.96179669392608091449};

// sin(r)/r in r^2 for |r| <= pi/2 (SLEEF's xsin).
constexpr std::array<double, 10> kSin{-7.97255955009037868891952e-18, 2.81009972710863200091251e-15,
                                      -7.64712219118158833288484e-13, 1.60590430605664501629054e-10,
                                      -2.50521083763502045810755e-08, 2.75573192239198747630416e-06,
                                      -0.000198412698412696162806809, 0.00833333333333332974823815,
                                      -0.166666666666666657414808,    1.0};

// pi in four parts for Cody-Waite (SLEEF): A, B, C with few enough bits that q*A etc. are exact.
constexpr double kPiA = 3.1415926218032836914, kPiB = 3.1786509424591713469e-08,
                 kPiC = 1.2246467864107188502e-16, kPiD = 1.2736634327021899816e-24;
// pi as a double and the rest.
constexpr double kPiHi = 3.141592653589793116, kPiLo = 1.2246467991473532072e-16;
constexpr double kInvPi = 0.318309886183790671537767526745028724;

// 1/pi in 32-bit words, most significant first: word 0 is the 32 bits of weight 2^31..2^0 (all
// zero), word w >= 1 the fraction bits 32w-31..32w. Computed from pi to 500 digits.
constexpr std::array<std::uint32_t, 38> kInvPiWords{
    0x00000000, 0x517CC1B7, 0x27220A94, 0xFE13ABE8, 0xFA9A6EE0, 0x6DB14ACC, 0x9E21C820, 0xFF28B1D5,
    0xEF5DE2B0, 0xDB92371D, 0x2126E970, 0x03249775, 0x04E8C90E, 0x7F0EF58E, 0x5894D39F, 0x74411AFA,
    0x975DA242, 0x74CE3813, 0x5A2FBF20, 0x9CC8EB1C, 0xC1A99CFA, 0x4E422FC5, 0xDEFC941D, 0x8FFC4BFF,
    0xEF02CC07, 0xF79788C5, 0xAD05368F, 0xB69B3F67, 0x93E584DB, 0xA7A31FB3, 0x4F2FF516, 0xBA93DD63,
    0xF5F2F8BD, 0x9E839CFB, 0xC5294975, 0x35FDAFD8, 0x8FC6AE84, 0x2B019823};

struct Reduced {
  UOp r;    // x - k*pi, in [-pi/2, pi/2]
  UOp odd;  // k is odd
};

// Cody-Waite for 0 <= x < 1e14: k = qdh + q with qdh a multiple of 2^24, so that each product
// with a part of pi is exact.
Reduced cody_waite(const UOp &x) {
  const UOp qdh = mul(conv(conv(mul(x, fc(kInvPi / 0x1p24)), I), F), fc(0x1p24));
  const UOp qi = round_away(sub(mul(x, fc(kInvPi)), qdh));
  const UOp q = conv(qi, F);
  UOp r = add(mul(qdh, fc(-kPiA)), x);
  r = add(mul(q, fc(-kPiA)), r);
  r = add(mul(qdh, fc(-kPiB)), r);
  r = add(mul(q, fc(-kPiB)), r);
  r = add(mul(qdh, fc(-kPiC)), r);
  r = add(mul(q, fc(-kPiC)), r);
  r = add(mul(add(qdh, q), fc(-kPiD)), r);
  return {r, ne(bit_and(qi, ic(1)), ic(0))};  // qdh is even
}

// The high 64 bits of the 128-bit product of a < 2^53 and b.
UOp mulhi(const UOp &a, const UOp &b) {
  const UOp lo32 = uc(0xFFFFFFFF), s32 = uc(32);
  const UOp ah = shr(a, s32), al = bit_and(a, lo32), bh = shr(b, s32), bl = bit_and(b, lo32);
  const UOp ll = mul(al, bl), lh = mul(al, bh), hl = mul(ah, bl), hh = mul(ah, bh);
  const UOp mid = add(add(shr(ll, s32), bit_and(lh, lo32)), bit_and(hl, lo32));
  return add(add(add(hh, shr(lh, s32)), shr(hl, s32)), shr(mid, s32));
}

// Payne-Hanek for finite x >= 2^21: x = m * 2^E with a 53-bit integer m; the bits of 1/pi of
// weight 2^-E down to 2^(-E-191) as a 192-bit integer W give x/pi mod 2 = (m*W mod 2^192) / 2^191
// up to m*2^-191 < 2^-138 (the bits of weight 2^(-E+1) and above make even multiples), enough
// for the doubles closest to a multiple of pi. The top bit is the integer part; the rest,
// rounded to the nearest integer, is the fraction in [-1/2, 1/2).
Reduced payne_hanek(const UOp &x) {
  const UOp b = bits(x, I);
  const UOp expo = bit_and(shr(b, ic(52)), ic(0x7FF));
  const UOp m = bits(bit_or(bit_and(b, ic((Int(1) << 52) - 1)), ic(Int(1) << 52)), U);
  const UOp pos = add(expo, ic(31 - 1075));  // bit position of weight 2^-E in the table
  const UOp word = shr(pos, ic(5));
  const UOp off = bits(bit_and(pos, ic(31)), U);
  std::array<UOp, 7> w;
  w.fill(uc(0));
  for (std::size_t i = 0; i + w.size() <= kInvPiWords.size(); ++i) {
    const UOp at = eq(word, ic(static_cast<Int>(i)));
    for (std::size_t k = 0; k < w.size(); ++k) w[k] = where(at, uc(kInvPiWords[i + k]), w[k]);
  }
  const UOp s32 = uc(32), one = uc(1), back = sub(uc(63), off);
  std::array<UOp, 4> pair;  // words 2k and 2k+1 as one
  for (std::size_t k = 0; k < pair.size(); ++k)
    pair[k] = bit_or(shl(w[2 * k], s32), 2 * k + 1 < w.size() ? w[2 * k + 1] : uc(0));
  // the window: pair k << off with the top of pair k+1; x >> (64 - off) as
  // (x >> (63 - off)) >> 1, defined for off == 0 too
  std::array<UOp, 3> win;
  for (std::size_t k = 0; k < win.size(); ++k)
    win[k] = bit_or(shl(pair[k], off), shr(shr(pair[k + 1], back), one));
  // the top 128 bits of m * W mod 2^192
  const UOp lo1 = mul(m, win[1]);
  const UOp z1 = add(lo1, mulhi(m, win[2]));
  const UOp carry = where(lt(z1, lo1), one, uc(0));
  const UOp z2 = add(add(mul(m, win[0]), mulhi(m, win[1])), carry);
  const UOp frac = bits(bit_or(shl(z2, one), shr(z1, uc(63))), I);  // weight 2^-64, rounded
  const UOp odd = ne(ne(shr(z2, uc(63)), uc(0)), lt(frac, ic(0)));
  // frac in two exact parts and the next 63 bits: a double-double number of turns of pi
  const UOp th = mul(conv(bit_and(frac, ic(~Int(0x7FF))), F), fc(0x1p-64));
  const UOp tl = mul(
      add(conv(bit_and(frac, ic(0x7FF)), F), mul(conv(shl(z1, one), F), fc(0x1p-64))), fc(0x1p-64));
  const UOp r = add(mul(th, fc(kPiHi)), add(mul(th, fc(kPiLo)), mul(tl, fc(kPiHi))));
  return {r, odd};
}

}  // namespace

UOp xexp2(const UOp &d) {
  const UOp x = where(bit_and(lt(d, fc(1100)), lt(fc(-2100), d)), d, fc(0));  // NaN, +-inf: 0
  const UOp q = round_away(x);
  UOp u = scale(poly(sub(x, conv(q, F)), kExp2), q);
  u = where(lt(d, fc(1024)), u, fc(kInf));
  u = where(lt(d, fc(-2000)), fc(0), u);
  return where(ne(d, d), fc(kNan), u);
}

UOp xlog2(const UOp &d) {
  const UOp tiny = lt(d, fc(1e-4));  // subnormals scaled by 2^64 first
  const UOp a = where(tiny, mul(d, fc(0x1p64)), d);
  // e = floor(log2(a / 0.75)), m = a / 2^e in [0.75, 1.5)
  const UOp ei = sub(bit_and(shr(bits(mul(a, fc(4.0 / 3.0)), I), ic(52)), ic(0x7FF)), ic(1023));
  const UOp m = bits(sub(bits(a, I), shl(ei, ic(52))), F);
  const UOp e = where(tiny, sub(conv(ei, F), fc(64)), conv(ei, F));
  const UOp x = mul(sub(m, fc(1)), unary(Op::RECIPROCAL, add(m, fc(1))));
  const UOp x2 = mul(x, x);
  UOp r = add(add(mul(poly(x2, kLog2), mul(x, x2)), e), mul(x, fc(2.885390081777926774)));
  r = where(ne(d, fc(kInf)), r, fc(kInf));
  r = where(ne(d, fc(0)), r, fc(-kInf));  // +0 and -0
  r = where(lt(d, fc(0)), fc(kNan), r);
  return where(ne(d, d), fc(kNan), r);
}

UOp xsin(const UOp &d) {
  const UOp finite = bit_and(lt(d, fc(kInf)), lt(fc(-kInf), d));
  const UOp x = where(finite, d, fc(0));
  const UOp neg = lt(bits(x, I), ic(0));  // the sign bit: sin(-0) = -0
  const UOp ax = where(neg, mul(x, fc(-1)), x);
  const UOp small = lt(ax, fc(0x1p22));
  const Reduced cw = cody_waite(where(small, ax, fc(0)));
  const Reduced ph = payne_hanek(where(small, fc(0x1p22), ax));
  const UOp r = where(small, cw.r, ph.r);
  const UOp v = mul(r, poly(mul(r, r), kSin));
  const UOp s = where(ne(where(small, cw.odd, ph.odd), neg), mul(v, fc(-1)), v);
  // sin(x) rounds to x below 2^-26 (zeros and subnormals keep their sign)
  return where(finite, where(lt(ax, fc(0x1p-26)), d, s), fc(kNan));
}

const PatternMatcher *transcendental_rules(const RenderTarget &target) {
  static constexpr std::array<Op, 3> kOps{Op::EXP2, Op::LOG2, Op::SIN};
  unsigned key = 0;
  for (std::size_t i = 0; i < kOps.size(); ++i)
    if (target.float64_lacks.contains(kOps[i])) key |= 1u << i;
  if (key == 0) return nullptr;
  static const std::array<PatternMatcher, 8> all = [] {
    std::array<PatternMatcher, 8> out;
    for (unsigned k = 1; k < 8; ++k) {
      std::vector<Rule> rules;
      if (k & 1)
        rules.push_back(rule("EXP2(x) -> polynomial and 2^round(x) (float64)",
                             pat(Op::EXP2, {var("d")}).dtype(F),
                             [](const Match &m) { return xexp2(m["d"]); }));
      if (k & 2)
        rules.push_back(rule("LOG2(x) -> exponent and polynomial (float64)",
                             pat(Op::LOG2, {var("d")}).dtype(F),
                             [](const Match &m) { return xlog2(m["d"]); }));
      if (k & 4)
        rules.push_back(rule("SIN(x) -> reduction mod pi and polynomial (float64)",
                             pat(Op::SIN, {var("d")}).dtype(F),
                             [](const Match &m) { return xsin(m["d"]); }));
      out[k] = PatternMatcher("transcendental decompositions", std::move(rules));
    }
    return out;
  }();
  return &all[key];
}

const PatternMatcher &with_transcendental_rules(const PatternMatcher &late,
                                                const RenderTarget &target) {
  const PatternMatcher *extra = transcendental_rules(target);
  if (!extra) return late;
  static std::mutex mutex;
  static std::map<std::pair<const PatternMatcher *, const PatternMatcher *>,
                  std::unique_ptr<PatternMatcher>>
      combined;
  const std::lock_guard lock(mutex);
  auto &slot = combined[{&late, extra}];
  if (!slot) slot = std::make_unique<PatternMatcher>(late + *extra);
  return *slot;
}

}  // namespace wavescope::compiler::lower::detail
