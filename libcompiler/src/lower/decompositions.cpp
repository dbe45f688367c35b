// Stages 19 and 21: early and late decompositions (passes.hpp).

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

#include "lower_util.hpp"
#include "transcendental.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

// k when c == 2^k (k >= 1... 62), else nullopt.
std::optional<unsigned> log2_exact(const UOp &c) {
  auto v = c.const_value();
  if (!v || *v < 1 || !fits_int64(*v)) return std::nullopt;
  const auto u = static_cast<std::uint64_t>(static_cast<std::int64_t>(*v));
  if (!std::has_single_bit(u)) return std::nullopt;
  return static_cast<unsigned>(std::countr_zero(u));
}

UOp c(const UOp &like, Int v) { return const_int(v, like.dtype()); }
UOp alu2(Op op, const UOp &a, const UOp &b, DType t) { return UOp::make(op, t, {a, b}); }
UOp cmp(Op op, const UOp &a, const UOp &b) { return UOp::make(op, dtypes::bool_, {a, b}); }

// max(a, b) as a where, NaN-propagating like the interpreter and the targets with a MAX
// instruction: a<b is false for a NaN on either side, so the side not tested by the compare is
// returned on false (a constant goes there: relu's max(0, x) is where(x<0, 0, x)), and with two
// variables a NaN b is tested for.
UOp max_to_where(const UOp &a, const UOp &b) {
  const auto nan_free = [](const UOp &x) {
    auto f = std::get_if<FloatValue>(&x.arg());
    return x.is_const() && !(f && std::isnan(f->value));
  };
  if (!is_float(a.dtype()) || nan_free(b)) return where(cmp(Op::CMPLT, a, b), b, a);
  if (nan_free(a)) return where(cmp(Op::CMPLT, b, a), a, b);
  return where(UOp::make(Op::OR, dtypes::bool_, {cmp(Op::CMPLT, a, b), cmp(Op::CMPNE, b, b)}), b,
               a);
}

// b ** e as exp2(e * log2|b|) (tinygrad's decomposition, for a target without POW): a negative
// base gives NaN for a non-integer exponent (-inf excepted) and flips the sign for an odd one;
// e == 0 gives 1, 0 ** 0 and inf ** 0 included.
UOp pow_to_exp2(const UOp &b, const UOp &e) {
  const DType t = b.dtype(), i32 = dtypes::int32;
  auto f = [&](double v) { return const_float(v, t); };
  const UOp negative = lt(b, f(0));
  const UOp ret = alu(Op::EXP2, {alu(Op::LOG2, {where(negative, b * f(-1), b)}) * e});
  const UOp non_int = ne(e, cast(cast(e, i32), t));
  const UOp abs_e = cast(where(lt(e, f(0)), e * f(-1), e), i32);
  const UOp odd = ne(bit_and(abs_e, const_int(1, i32)), const_int(0, i32));
  const UOp of_negative =
      where(non_int, where(ne(b, f(-INFINITY)), f(NAN), ret), where(odd, ret * f(-1), ret));
  return where(eq(e, f(0)), f(1), where(negative, of_negative, ret));
}

bool both_same_sign(const UOp &a, const UOp &b) {
  return (a.vmin() >= 0 && b.vmin() > 0) || (a.vmax() <= 0 && b.vmax() < 0);
}

// (a<0) != (b<0): the operands' signs differ.
UOp signs_differ(const UOp &a, const UOp &b) {
  return cmp(Op::CMPNE, cmp(Op::CMPLT, a, c(a, 0)), cmp(Op::CMPLT, b, c(b, 0)));
}

UOp floordiv_to_cdiv(const UOp &a, const UOp &b, DType t) {
  const UOp q = alu2(Op::CDIV, a, b, t);
  if (both_same_sign(a, b)) return q;
  const UOp r = alu2(Op::CMOD, a, b, t);
  const UOp fix =
      UOp::make(Op::AND, dtypes::bool_, {cmp(Op::CMPNE, r, c(r, 0)), signs_differ(a, b)});
  return where(fix, alu2(Op::ADD, q, c(q, -1), t), q);
}

UOp floormod_to_cmod(const UOp &a, const UOp &b, DType t) {
  const UOp r = alu2(Op::CMOD, a, b, t);
  if (both_same_sign(a, b)) return r;
  const UOp fix =
      UOp::make(Op::AND, dtypes::bool_, {cmp(Op::CMPNE, r, c(r, 0)), signs_differ(a, b)});
  return alu2(Op::ADD, r, where(fix, b, c(b, 0)), t);
}

// Threefry-2x32 with 20 rounds on the uint64 halves (the interpreter's THREEFRY).
UOp threefry(const UOp &x, const UOp &key) {
  const DType u32 = dtypes::uint32, u64 = dtypes::uint64;
  auto lo = [&](const UOp &v) { return UOp::make(Op::CAST, u32, {v}, u32); };
  auto hi = [&](const UOp &v) { return lo(alu2(Op::SHR, v, const_int(32, u64), u64)); };
  auto k32 = [&](Int v) { return const_int(v, u32); };
  auto add = [&](const UOp &a, const UOp &b) { return alu2(Op::ADD, a, b, u32); };
  const UOp k0 = lo(key), k1 = hi(key);
  const UOp k2 = alu2(Op::XOR, alu2(Op::XOR, k0, k1, u32), k32(0x1BD11BDA), u32);
  const UOp ks[3] = {k0, k1, k2};
  static constexpr int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  UOp a = add(lo(x), k0), b = add(hi(x), k1);
  for (int r = 0; r < 20; ++r) {
    a = add(a, b);
    const int s = kRot[r % 8];
    const UOp rot =
        alu2(Op::OR, alu2(Op::SHL, b, k32(s), u32), alu2(Op::SHR, b, k32(32 - s), u32), u32);
    b = alu2(Op::XOR, rot, a, u32);
    if (r % 4 == 3) {
      const int i = (r + 1) / 4;
      a = add(a, ks[i % 3]);
      b = add(add(b, ks[(i + 1) % 3]), k32(i));
    }
  }
  const UOp wide_b = UOp::make(Op::CAST, u64, {b}, u64),
            wide_a = UOp::make(Op::CAST, u64, {a}, u64);
  return alu2(Op::OR, alu2(Op::SHL, wide_b, const_int(32, u64), u64), wide_a, u64);
}

const PatternMatcher &early_rules(const RenderTarget &target) {
  // Four variants: with or without MAX, with or without POW.
  static const auto make = [](bool has_max, bool has_pow) {
    std::vector<Rule> rules{
        rule("x//2^k -> x>>k", pat(Op::FLOORDIV, {var("x", sized_int_dtypes()), cvar("c")}),
             [](const Match &m) -> UOp {
               auto k = log2_exact(m["c"]);
               if (!k) return {};
               return alu2(Op::SHR, m["x"], c(m["x"], *k), m["x"].dtype());
             }),
        rule("x//y -> cdiv(x, y) with the sign fix-up", pat(Op::FLOORDIV, {var("a"), var("b")}),
             [](const Match &m) -> UOp {
               if (is_weak(m.root().dtype())) return {};
               return floordiv_to_cdiv(m["a"], m["b"], m.root().dtype());
             }),
        rule("x%2^k -> x&(2^k-1)", pat(Op::FLOORMOD, {var("x", sized_int_dtypes()), cvar("c")}),
             [](const Match &m) -> UOp {
               auto k = log2_exact(m["c"]);
               if (!k) return {};
               return alu2(Op::AND, m["x"], c(m["x"], (Int(1) << *k) - 1), m["x"].dtype());
             }),
        rule("x%y -> cmod(x, y) with the sign fix-up", pat(Op::FLOORMOD, {var("a"), var("b")}),
             [](const Match &m) -> UOp {
               if (is_weak(m.root().dtype())) return {};
               return floormod_to_cmod(m["a"], m["b"], m.root().dtype());
             }),
        rule("THREEFRY -> 32-bit rounds", pat(Op::THREEFRY, {var("x"), var("key")}),
             [](const Match &m) -> UOp {
               if (m.root().dtype() != dtypes::uint64) return {};
               return threefry(m["x"], m["key"]);
             }),
    };
    if (!has_max)
      rules.push_back(rule("max(a, b) -> where(a<b, b, a); NaN wins",
                           pat(Op::MAX, {var("a"), var("b")}),
                           [](const Match &m) { return max_to_where(m["a"], m["b"]); }));
    if (!has_pow)
      rules.push_back(rule("b**e -> exp2(e*log2|b|) with the sign and zero fix-ups",
                           pat(Op::POW, {var("b"), var("e")}), [](const Match &m) -> UOp {
                             if (!is_float(m["b"].dtype()) || m["b"].dtype().is_vector()) return {};
                             return pow_to_exp2(m["b"], m["e"]);
                           }));
    return PatternMatcher("early decompositions", std::move(rules));
  };
  static const std::array<PatternMatcher, 4> variants{make(false, false), make(true, false),
                                                      make(false, true), make(true, true)};
  return variants[(target.supports(Op::MAX) ? 1 : 0) | (target.supports(Op::POW) ? 2 : 0)];
}

// m and s with x//d == (x*m) >> s for 0 <= x <= vmax (Hacker's Delight, chapter 10).
std::pair<Int, unsigned> magic(Int vmax, Int d) {
  const Int nc = floor_div(vmax + 1, d) * d - 1;
  unsigned nbits = 0;
  for (Int v = vmax; v > 0; v = floor_div(v, Int(2))) ++nbits;
  for (unsigned s = 0; s <= 2 * nbits; ++s) {
    const Int p = Int(1) << s;
    if (p > nc * (d - 1 - floor_mod(p - 1, d)))
      return {floor_div(p + d - 1 - floor_mod(p - 1, d), d), s};
  }
  return {0, 0};
}

// x // d for constant d > 1 by a multiply and a shift, when x*m cannot overflow its dtype (or
// a wider one); null otherwise.
UOp magic_divide(const UOp &x, Int d) {
  const DType t = x.dtype();
  const Int lo = x.vmin() > dtype_min(t) ? x.vmin() : dtype_min(t);
  const Int hi = x.vmax() < dtype_max(t) ? x.vmax() : dtype_max(t);
  if (lo < 0) return {};
  if (hi < d) return c(x, 0);
  auto [m, s] = magic(hi, d);
  if (m == 0) return {};
  if (m * hi <= dtype_max(t)) return alu2(Op::SHR, alu2(Op::MUL, x, c(x, m), t), c(x, s), t);
  DType wide = dtypes::void_;
  if (t == dtypes::int32 || t == dtypes::uint32) wide = dtypes::int64;
  if (t == dtypes::int16 || t == dtypes::uint16) wide = dtypes::int32;
  if (t == dtypes::int8 || t == dtypes::uint8) wide = dtypes::int16;
  if (wide == dtypes::void_ || m * hi > dtype_max(wide)) return {};
  const UOp wx = UOp::make(Op::CAST, wide, {x}, wide);
  const UOp q =
      alu2(Op::SHR, alu2(Op::MUL, wx, const_int(m, wide), wide), const_int(s, wide), wide);
  return UOp::make(Op::CAST, t, {q}, t);
}

PatternMatcher make_late_rules(const RenderTarget &target) {
  std::vector<Rule> rules{
      rule("x*2^k -> x<<k", pat(Op::MUL, {var("x", sized_int_dtypes()), cvar("c")}),
           [](const Match &m) -> UOp {
             auto k = log2_exact(m["c"]);
             if (!k || *k == 0) return {};
             return alu2(Op::SHL, m["x"], c(m["x"], *k), m["x"].dtype());
           }),
      rule("cdiv(x, 2^k) -> x>>k (with a bias for negative x)",
           pat(Op::CDIV, {var("x", sized_int_dtypes()), cvar("c")}),
           [](const Match &m) -> UOp {
             const UOp &x = m["x"];
             auto k = log2_exact(m["c"]);
             if (!k || *k == 0) return {};
             if (x.vmin() >= 0 || is_unsigned(x.dtype()))
               return alu2(Op::SHR, x, c(x, *k), x.dtype());
             const UOp bias = where(cmp(Op::CMPLT, x, c(x, 0)), c(x, (Int(1) << *k) - 1), c(x, 0));
             return alu2(Op::SHR, alu2(Op::ADD, x, bias, x.dtype()), c(x, *k), x.dtype());
           }),
      rule("cdiv(x, d) -> (x*m)>>s for x >= 0 (magic number)",
           pat(Op::CDIV, {var("x", sized_int_dtypes()), cvar("d")}),
           [](const Match &m) -> UOp {
             auto d = m["d"].const_value();
             if (!d || *d <= 1 || log2_exact(m["d"])) return {};
             return magic_divide(m["x"], *d);
           }),
      rule("cmod(x, d) -> x - d*cdiv(x, d) for x >= 0",
           pat(Op::CMOD, {var("x", sized_int_dtypes()), cvar("d")}),
           [](const Match &m) -> UOp {
             const UOp &x = m["x"];
             auto d = m["d"].const_value();
             if (!d || *d <= 1 || (x.vmin() < 0 && !is_unsigned(x.dtype()))) return {};
             if (auto k = log2_exact(m["d"])) return alu2(Op::AND, x, c(x, *d - 1), x.dtype());
             const UOp q = magic_divide(x, *d);
             if (!q) return {};
             return alu2(Op::ADD, x, alu2(Op::MUL, q, c(x, -*d), x.dtype()), x.dtype());
           }),
      rule("(x!=y)!=true -> x==y", logical_not(ne(var("x"), var("y"))),
           [](const Match &m) { return cmp(Op::CMPEQ, m["x"], m["y"]); }),
      rule("!(x<c) -> c-1<x (signed ints)",
           logical_not(lt(var("x", signed_int_dtypes()), cvar("c"))),
           [](const Match &m) -> UOp {
             const Int v = *m["c"].const_value();
             if (v <= dtype_min(m["x"].dtype())) return {};
             return cmp(Op::CMPLT, c(m["x"], v - 1), m["x"]);
           }),
      rule("!(c<x) -> x<c+1 (signed ints)",
           logical_not(lt(cvar("c"), var("x", signed_int_dtypes()))),
           [](const Match &m) -> UOp {
             const Int v = *m["c"].const_value();
             if (v >= dtype_max(m["x"].dtype())) return {};
             return cmp(Op::CMPLT, m["x"], c(m["x"], v + 1));
           }),
      rule("x*-1 -> NEG(x)", var("x") * -1,
           [](const Match &m) { return UOp::make(Op::NEG, m["x"].dtype(), {m["x"]}); }),
      rule("x+NEG(y) -> SUB(x, y)", var("x") + pat(Op::NEG, {var("y")}),
           [](const Match &m) { return alu2(Op::SUB, m["x"], m["y"], m.root().dtype()); }),
  };
  if (target.supports(Op::MULACC))
    rules.push_back(rule("a*b+c -> MULACC(a, b, c)", (var("a") * var("b")) + var("c"),
                         [](const Match &m) -> UOp {
                           const DType t = m.root().dtype();
                           if (!is_float(t) || t.is_vector()) return {};
                           return UOp::make(Op::MULACC, t, {m["a"], m["b"], m["c"]});
                         }));
  if (target.supports(Op::FDIV)) {
    rules.push_back(rule("RECIPROCAL(x) -> FDIV(1, x)", pat(Op::RECIPROCAL, {var("x")}),
                         [](const Match &m) -> UOp {
                           const DType t = m.root().dtype();
                           if (!is_float(t)) return {};
                           return alu2(Op::FDIV, const_float(1.0, t), m["x"], t);
                         }));
    rules.push_back(rule("a*FDIV(1, b) -> FDIV(a, b)",
                         var("a") * pat(Op::FDIV, {constant(1), var("b")}),
                         [](const Match &m) -> UOp {
                           const DType t = m.root().dtype();
                           if (!is_float(t)) return {};
                           return alu2(Op::FDIV, m["a"], m["b"], t);
                         }));
  }
  return PatternMatcher("late decompositions", std::move(rules));
}

// The matchers of a target, built once per combination of the ops that steer them.
struct Decompositions {
  PatternMatcher early, late;
};

const Decompositions &decompositions_for(const RenderTarget &target) {
  const unsigned k = (target.supports(Op::MAX) ? 1 : 0) | (target.supports(Op::MULACC) ? 2 : 0) |
                     (target.supports(Op::FDIV) ? 4 : 0) | (target.supports(Op::POW) ? 8 : 0);
  // Built on first use: a compile for one target builds its pair only (each costs ~0.4M
  // instructions; all sixteen were 6M of a one-kernel `wavectl compile`).
  static std::array<std::once_flag, 16> once;
  static std::array<std::optional<Decompositions>, 16> all;
  std::call_once(once[k], [k] {
    RenderTarget t;
    t.ops = OpSet{Op::ADD};
    if (k & 1) t.ops.add(Op::MAX);
    if (k & 2) t.ops.add(Op::MULACC);
    if (k & 4) t.ops.add(Op::FDIV);
    if (k & 8) t.ops.add(Op::POW);
    PatternMatcher early = symbolic::symbolic_simple() + early_rules(t);
    PatternMatcher late = early + make_late_rules(t);
    all[k].emplace(Decompositions{std::move(early), std::move(late)});
  });
  return *all[k];
}

}  // namespace

UOp early_decompositions(const UOp &sink, const RenderTarget &target) {
  return graph_rewrite(sink, decompositions_for(target).early,
                       detail::pass("early decompositions"));
}

UOp late_decompositions(const UOp &sink, const RenderTarget &target) {
  return graph_rewrite(sink,
                       detail::with_transcendental_rules(decompositions_for(target).late, target),
                       detail::pass("late decompositions"));
}

}  // namespace wavescope::compiler::lower
