// Identities and self-folding (§4.3.2), constant folding (§4.3.1), casts (§4.3.11) and where over
// equal or constant operands (§4.3.8, simple part): the cheap cleanups of symbolic_simple.

#include <cmath>

#include "symbolic/algebra.hpp"
#include "symbolic/alu_semantics.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;
using detail::constant_like;
using detail::int_value;

namespace {

const DTypeList kBool{dtypes::bool_};

bool all_ones_mask(Int mask, Int low_bits) { return (mask | low_bits) == -1; }

// The value of a CONST as an evaluator value (nullopt for floats and Invalid).
std::optional<Value> const_as_value(const UOp &c) {
  if (c.op() != Op::CONST || c.is_invalid()) return std::nullopt;
  if (auto b = std::get_if<bool>(&c.arg())) return Value::boolean(*b);
  if (auto i = std::get_if<Int>(&c.arg())) return Value::integer(*i);
  return std::nullopt;
}

UOp value_to_const(const Value &v, DType dtype) {
  if (v.kind == Value::Kind::Bool || is_bool(dtype)) return const_bool(v.v != 0);
  if (!is_int(dtype)) return {};
  return const_int(v.v, dtype);
}

std::optional<double> const_as_double(const UOp &c) {
  if (c.op() != Op::CONST || c.is_invalid()) return std::nullopt;
  if (auto f = std::get_if<FloatValue>(&c.arg())) return f->value;
  if (auto i = std::get_if<Int>(&c.arg())) return static_cast<double>(*i);
  if (auto b = std::get_if<bool>(&c.arg())) return *b ? 1.0 : 0.0;
  return std::nullopt;
}

// Folds a float-valued ALU node over constants.
UOp fold_float(const UOp &a) {
  std::vector<double> x;
  for (const auto &s : a.src()) {
    auto v = const_as_double(s);
    if (!v) return {};
    x.push_back(*v);
  }
  const DType t = a.dtype();
  auto f = [&](double r) { return const_float(r, t); };
  auto b = [&](bool r) { return const_bool(r); };
  switch (a.op()) {
  case Op::ADD: return f(x[0] + x[1]);
  case Op::SUB: return f(x[0] - x[1]);
  case Op::MUL: return f(x[0] * x[1]);
  case Op::FDIV: return f(x[0] / x[1]);
  case Op::MAX: return f(std::fmax(x[0], x[1]));
  case Op::NEG: return f(-x[0]);
  case Op::SQRT: return f(std::sqrt(x[0]));
  case Op::RECIPROCAL: return f(1.0 / x[0]);
  case Op::EXP2: return f(std::exp2(x[0]));
  case Op::LOG2: return f(std::log2(x[0]));
  case Op::SIN: return f(std::sin(x[0]));
  case Op::TRUNC: return f(std::trunc(x[0]));
  case Op::CMPLT: return b(x[0] < x[1]);
  case Op::CMPNE: return b(x[0] != x[1]);
  case Op::CMPEQ: return b(x[0] == x[1]);
  case Op::WHERE: return f(x[0] != 0 ? x[1] : x[2]);
  case Op::MULACC: return f(x[0] * x[1] + x[2]);
  default: return {};
  }
}

// Evaluates an ALU node whose sources are all constants (§4.3.1); null when it cannot.
UOp fold_constants(const UOp &a) {
  const bool float_math =
      is_float(a.dtype()) ||
      std::any_of(a.src().begin(), a.src().end(), [](const UOp &s) { return is_float(s.dtype()); });
  if (float_math) return fold_float(a);
  std::vector<Value> v;
  for (const auto &s : a.src()) {
    auto x = const_as_value(s);
    if (!x) return {};
    v.push_back(*x);
  }
  Value r;
  switch (a.op()) {
  case Op::NEG: r = detail::binary_value(Op::MUL, a.dtype(), v[0], Value::integer(-1)); break;
  case Op::TRUNC: r = v[0]; break;
  case Op::WHERE:
    return a.src(v[0].v != 0 ? 1 : 2);  // the selected branch as it is (a where does not wrap)
  case Op::MULACC:
    r = detail::binary_value(Op::ADD, a.dtype(),
                             detail::binary_value(Op::MUL, a.dtype(), v[0], v[1]), v[2]);
    break;
  default:
    if (v.size() != 2) return {};
    r = detail::binary_value(a.op(), a.dtype(), v[0], v[1]);
  }
  if (!r.is_defined() || r.kind == Value::Kind::Invalid) return {};  // e.g. division by zero stays
  return value_to_const(r, a.dtype());
}

bool bit_exact_cast(DType from, DType to) {
  return is_int(from) && is_sized_int(to) && byte_size(from.base()) == byte_size(to.base());
}

}  // namespace

const PatternMatcher &identity_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "identities", {
                        rule("x+0, x^0, x|0 -> x",
                             pat_any_src({Op::ADD, Op::XOR, Op::OR})
                                 .with_permuted_src({var("x"), constant(0)}),
                             [](const Match &m) { return m["x"]; }),
                        rule("x<<0, x>>0 -> x", pat({Op::SHL, Op::SHR}, {var("x"), constant(0)}),
                             [](const Match &m) { return m["x"]; }),
                        rule("x*1 -> x", var("x") * 1, [](const Match &m) { return m["x"]; }),
                        rule("x//x -> 1", floordiv(var("x"), var("x")),
                             [](const Match &m) { return constant_like(m["x"], 1); }),
                        rule("x//1 -> x", floordiv(var("x"), 1),
                             [](const Match &m) { return m["x"]; }),
                        rule("x//-1 -> -x", floordiv(var("x"), -1),
                             [](const Match &m) { return m["x"] * -1; }),
                        rule("(x^y)^y -> x", bit_xor(bit_xor(var("x"), var("y")), var("y")),
                             [](const Match &m) { return m["x"]; }),
                        rule("(x%y)%y -> x%y",
                             floormod(floormod(var(), var("y")).named("base"), var("y")),
                             [](const Match &m) { return m["base"]; }),
                        rule("x&c (bool) -> x or c", bit_and(var("x", kBool), detail::bcvar("c")),
                             [](const Match &m) { return m.value("c") ? m["x"] : m["c"]; }),
                        rule("x|c (bool) -> c or x", bit_or(var("x", kBool), detail::bcvar("c")),
                             [](const Match &m) { return m.value("c") ? m["c"] : m["x"]; }),
                        rule("x!=false -> x", ne(var("x", kBool), constant(false, kBool)),
                             [](const Match &m) { return m["x"]; }),
                        rule("x&x, x|x, max(x,x) -> x", pat(ops::kIdempotent, {var("x"), var("x")}),
                             [](const Match &m) { return m["x"]; }),
                        rule("!!x -> x", logical_not(logical_not(var("x", kBool))),
                             [](const Match &m) { return m["x"]; }),
                        rule("where(x,true,false) -> x",
                             where(var("x", kBool), constant(true, kBool), constant(false, kBool)),
                             [](const Match &m) { return m["x"]; }),
                        rule("where(x,false,true) -> !x",
                             where(var("x", kBool), constant(false, kBool), constant(true, kBool)),
                             [](const Match &m) { return logical_not(m["x"]); }),
                        rule("int(bool x)!=c -> x, !x or true",
                             ne(cast(var("x", kBool), int_dtypes()), detail::icvar("c")),
                             [](const Match &m) {
                               const Int c = m.value("c");
                               return c == 0   ? m["x"]
                                      : c == 1 ? logical_not(m["x"])
                                               : const_bool(true);
                             }),
                        rule("trunc(int) -> x",
                             pat(Op::TRUNC, {var("x",
                                                 [] {
                                                   auto l = int_dtypes();
                                                   l.push_back(dtypes::bool_);
                                                   return l;
                                                 }())}),
                             [](const Match &m) { return m["x"]; }),
                        rule("x<x -> false", lt(var("x"), var("x")),
                             [](const Match &) { return const_bool(false); }),
                        rule("x%x -> 0", floormod(var("x"), var("x")),
                             [](const Match &m) { return constant_like(m["x"], 0); }),
                        rule("x^x -> 0", bit_xor(var("x"), var("x")),
                             [](const Match &m) { return constant_like(m["x"], 0); }),
                        rule("x&0 -> 0", bit_and(var("x"), 0),
                             [](const Match &m) { return constant_like(m["x"], 0); }),
                        rule("(x&mask)>>k -> x>>k",
                             shr(bit_and(var("x"), detail::icvar("mask")), detail::icvar("k")),
                             [](const Match &m) -> UOp {
                               const Int k = m.value("k");
                               if (k < 0 || k >= 120 ||
                                   !all_ones_mask(m.value("mask"),
                                                  (Int(1) << static_cast<unsigned>(k)) - 1))
                                 return {};
                               return shr(m["x"], m["k"]);
                             }),
                        rule("(x&mask)//2^k -> x//2^k",
                             floordiv(bit_and(var("x"), detail::icvar("mask")), detail::icvar("c")),
                             [](const Match &m) -> UOp {
                               const Int c = m.value("c");
                               if (c <= 0 || (c & (c - 1)) != 0 ||
                                   !all_ones_mask(m.value("mask"), c - 1))
                                 return {};
                               return floordiv(m["x"], m["c"]);
                             }),
                        rule("x!=x -> false (ints)",
                             ne(var("x",
                                    [] {
                                      auto l = int_dtypes();
                                      l.push_back(dtypes::bool_);
                                      return l;
                                    }()),
                                var("x")),
                             [](const Match &) { return const_bool(false); }),
                        rule("bool x*y -> x&y", var("x", kBool) * var("y", kBool),
                             [](const Match &m) { return bit_and(m["x"], m["y"]); }),
                        rule("bool x+y -> x|y", var("x", kBool) + var("y", kBool),
                             [](const Match &m) { return bit_or(m["x"], m["y"]); }),
                        rule("bool max(x,y) -> x|y", maximum(var("x", kBool), var("y", kBool)),
                             [](const Match &m) { return bit_or(m["x"], m["y"]); }),
                        rule("x*0 -> 0 (not floats: inf*0 is nan)", var("x") * 0,
                             [](const Match &m) -> UOp {
                               if (is_float(m.root().dtype())) return {};
                               return constant_like(m.root(), 0);
                             }),
                        rule("x|!x -> true", bit_or(var("x", kBool), logical_not(var("x", kBool))),
                             [](const Match &) { return const_bool(true); }),
                    });
  return rules;
}

const PatternMatcher &constant_folding_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "constant folding",
      {
          rule("cast(const) -> const", pat(Op::CAST, {cvar("c")}).named("root"),
               [](const Match &m) -> UOp {
                 const UOp &root = m["root"];
                 const UOp &c = m["c"];
                 if (c.is_invalid()) return {};
                 const DType to = root.dtype();
                 if (is_float(to)) {
                   if (auto d = const_as_double(c)) return const_float(*d, to);
                   return {};
                 }
                 if (auto f = std::get_if<FloatValue>(&c.arg())) {
                   if (!std::isfinite(f->value) || !is_int(to)) return {};
                   return is_bool(to) ? const_bool(f->value != 0)
                                      : const_int(static_cast<Int>(std::trunc(f->value)), to);
                 }
                 auto v = const_as_value(c);
                 if (!v) return {};
                 return value_to_const(detail::cast_value(*v, to), to);
               }),
          rule("op(consts) -> const", pat(ops::kUnary, {cvar()}).named("a"),
               [](const Match &m) { return fold_constants(m["a"]); }),
          rule("op(const, const) -> const",
               pat(ops::kBinary - OpSet{Op::THREEFRY}, {cvar(), cvar()}).named("a"),
               [](const Match &m) { return fold_constants(m["a"]); }),
          rule("op(const, const, const) -> const",
               pat(ops::kTernary, {cvar(), cvar(), cvar()}).named("a"),
               [](const Match &m) { return fold_constants(m["a"]); }),
      });
  return rules;
}

const PatternMatcher &cast_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "casts",
      {
          rule("cast to the same dtype -> x", pat_any_src({Op::CAST, Op::BITCAST}).named("root"),
               [](const Match &m) -> UOp {
                 const UOp &r = m["root"];
                 if (r.size() == 1 && r.dtype() == r.src(0).dtype()) return r.src(0);
                 return {};
               }),
          rule("bitcast(const) -> const", pat(Op::BITCAST, {cvar("c")}).named("root"),
               [](const Match &m) -> UOp {
                 const UOp &c = m["c"];
                 if (!bit_exact_cast(c.dtype(), m["root"].dtype())) return {};
                 auto v = int_value(c);
                 if (!v || is_bool(c.dtype())) return {};
                 return const_int(*v, m["root"].dtype());
               }),
          rule("cast(cast(x,a),b) -> cast(x,b) when a keeps every value of x",
               cast(cast(var("x"), {}, "a"), {}, "b"),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"];
                 const DType a = m["a"].dtype();
                 // a holds x's dtype, or (ints) x's range: either way the middle cast is exact
                 const bool keeps =
                     can_lossless_cast(x.dtype(), a) ||
                     (is_int(x.dtype()) && is_int(a) &&
                      (!is_sized_int(a) || (dtype_min(a) <= x.vmin() && x.vmax() <= dtype_max(a))));
                 if (!keeps) return {};
                 return x.dtype() == m["b"].dtype() ? x : cast(x, m["b"].dtype());
               }),
          rule("op(int64 x, int64 y) -> int64(op(int32 x, int32 y)) when nothing leaves int32",
               // (int64/index operands only: the matcher rejects the rest before the body runs)
               pat(ops::kBinary - OpSet{Op::THREEFRY}, {var("x", {dtypes::int64, dtypes::index}),
                                                        var("y", {dtypes::int64, dtypes::index})})
                   .named("u"),
               [](const Match &m) -> UOp {
                 // (the pattern's root and its two sources, without looking the names up)
                 const UOp &u = m.root(), &x = u.src(0), &y = u.src(1);
                 auto wide = [](DType d) { return d == dtypes::int64 || d == dtypes::index; };
                 if (!wide(x.dtype()) || !wide(y.dtype())) return {};
                 if (x.dtype() != dtypes::int64 && y.dtype() != dtypes::int64) return {};
                 auto fits_int32 = [](const UOp &v) {
                   return dtype_min(dtypes::int32) <= v.vmin() &&
                          v.vmax() <= dtype_max(dtypes::int32);
                 };
                 if (!fits_int32(u) || !fits_int32(x) || !fits_int32(y)) return {};
                 auto narrow = [](const UOp &v) {
                   if (auto c = int_value(v); c && v.is_const())
                     return const_int(*c, dtypes::int32);
                   return cast(v, dtypes::int32);
                 };
                 return cast(alu(u.op(), {narrow(x), narrow(y)}), u.dtype());
               }),
          rule("bitcast(bitcast(x)) -> bitcast(x)",
               pat(Op::BITCAST, {pat(Op::BITCAST, {var("x")})}).named("b"),
               [](const Match &m) -> UOp {
                 if (m["x"].dtype() == m["b"].dtype()) return m["x"];
                 return UOp::make(Op::BITCAST, m["b"].dtype(), {m["x"]}, m["b"].dtype());
               }),
          rule("bool(x) -> x!=0", cast(var("x"), kBool),
               [](const Match &m) -> UOp {
                 if (is_float(m["x"].dtype())) return ne(m["x"], const_float(0.0, m["x"].dtype()));
                 return ne(m["x"], constant_like(m["x"], 0));
               }),
      });
  return rules;
}

const PatternMatcher &simple_where_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "where (simple)",
      {
          rule("where(c,v,v) -> v", where(var(), var("val"), var("val")),
               [](const Match &m) { return m["val"]; }),
          rule("where(const,a,b) -> a or b",
               where(detail::bcvar("gate"), var("c0"), var("c1")).named("w"),
               [](const Match &m) -> UOp {
                 if (m["gate"].is_invalid()) return {};
                 UOp r = m.value("gate") ? m["c0"] : m["c1"];
                 // A weak constant picked by a strongly typed where takes the where's dtype
                 // (when its value fits: a where passes values through without wrapping).
                 if (r.is_const() && is_weak(r.dtype()) && !is_weak(m["w"].dtype()) &&
                     int_value(r) && is_int(m["w"].dtype()) && detail::fits(m["w"], *int_value(r)))
                   return const_int(*int_value(r), m["w"].dtype());
                 return r;
               }),
          rule("where(a,where(b,c,d),d) -> where(a&b,c,d)",
               where(var("a"), where(var("b"), var("c"), var("d")), var("d")),
               [](const Match &m) -> UOp {
                 // b is now evaluated where a is false as well
                 if (detail::may_be_undefined(m["b"])) return {};
                 return where(bit_and(m["a"], m["b"]), m["c"], m["d"]);
               }),
          rule("where(a,c,where(b,c,d)) -> where(a|b,c,d)",
               where(var("a"), var("c"), where(var("b"), var("c"), var("d"))),
               [](const Match &m) -> UOp {
                 if (detail::may_be_undefined(m["b"])) return {};
                 return where(bit_or(m["a"], m["b"]), m["c"], m["d"]);
               }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
