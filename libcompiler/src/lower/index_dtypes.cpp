// Stages 17 and 18: lower all index dtypes, cast float ALU operands (passes.hpp).

#include <limits>

#include "lower_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

bool fits_int32(const UOp &u) {
  return u.vmin() >= Int(std::numeric_limits<std::int32_t>::min()) &&
         u.vmax() <= Int(std::numeric_limits<std::int32_t>::max());
}

// A weak value committed at dtype t: a constant of t, or a cast.
UOp commit(const UOp &s, DType t) {
  t = t.base().vec(s.dtype().lanes);
  if (s.dtype() == t) return s;
  if (s.is_const() && !s.dtype().is_vector()) {
    const Arg &a = s.arg();
    if (auto f = std::get_if<FloatValue>(&a)) {
      if (is_float(t)) return const_float(f->value, t);
    } else if (auto i = std::get_if<Int>(&a)) {
      if (is_float(t)) return const_float(static_cast<double>(*i), t);
      if (is_int(t) || is_bool(t)) return const_int(*i, t);
    }
  }
  return UOp::make(Op::CAST, t, {s}, t);
}

// The dtype every weak operand of u is committed at, or void when u decides nothing.
DType operand_dtype(const UOp &u) {
  if (ops::kComparison.contains(u.op())) {
    for (const auto &s : u.src())
      if (!is_weak(s.dtype()) && !s.is_invalid()) return s.dtype();
    return dtypes::void_;
  }
  if (is_weak(u.dtype()) || u.dtype() == dtypes::void_) return dtypes::void_;
  return u.dtype();
}

UOp commit_weak_operands(const UOp &u) {
  const DType t = operand_dtype(u);
  if (t == dtypes::void_) return {};
  std::vector<UOp> src = u.src();
  bool changed = false;
  for (std::size_t k = u.op() == Op::WHERE ? 1 : 0; k < src.size(); ++k)
    if (is_weak(src[k].dtype()) && !src[k].is_invalid()) {
      src[k] = commit(src[k], t);
      changed = true;
    }
  return changed ? UOp::make(u.op(), u.dtype(), std::move(src), u.arg(), u.tag()) : UOp{};
}

DType width_of(const UOp &u) { return fits_int32(u) ? dtypes::int32 : dtypes::int64; }

// A weak leaf or conversion at a concrete dtype: an index constant, variable or cast at int32
// (int64 when its values do not fit), a weak float at float32.
UOp lower_weak_leaf(const UOp &u) {
  const DType t = u.dtype();
  if (!is_weak(t) || t.is_pointer() || u.is_invalid() || t.is_vector()) return {};
  const DType to = t.scalar == ScalarType::Index ? width_of(u) : dtypes::float32;
  if (u.is_const()) return commit(u, to);
  if (u.op() == Op::PARAM || u.op() == Op::BUFFER) {
    auto p = std::get<ParamArg>(u.arg());
    p.dtype = to;
    return UOp::make(u.op(), to, u.src(), p, u.tag());
  }
  if (u.op() == Op::CAST || u.op() == Op::BITCAST)
    return UOp::make(u.op(), to, u.src(), to, u.tag());
  return {};
}

// Index math whose values leave int32, computed in int64 while it is still index math: its
// operands widened, the result an index again for its consumers. Deciding it here, before the
// lowering gives index nodes their widths, keeps the kernel's own int32 math (which wraps, as
// tinygrad's does) from ever being widened.
UOp widen_index_math(const UOp &u) {
  if (u.dtype() != dtypes::index || ops::kComparison.contains(u.op()) || fits_int32(u)) return {};
  std::vector<UOp> src = u.src();
  for (std::size_t k = u.op() == Op::WHERE ? 1 : 0; k < src.size(); ++k)
    if (!src[k].is_invalid()) src[k] = commit(src[k], dtypes::int64);
  const UOp wide = UOp::make(u.op(), dtypes::int64, std::move(src), u.arg(), u.tag());
  return UOp::make(Op::CAST, dtypes::index, {wide}, dtypes::index);
}

const PatternMatcher &commit_weak_rules() {
  static const PatternMatcher pm(
      "commit weak operands",
      {
          rule("weak operands of a typed op -> that dtype",
               pat_any_src(ops::kBroadcastable).named("u"),
               [](const Match &m) { return commit_weak_operands(m["u"]); }),
          rule("index math beyond int32 -> int64", pat_any_src(ops::kAlu).named("u"),
               [](const Match &m) { return widen_index_math(m["u"]); }),
          rule("STORE of a weak value -> the buffer's dtype", pat_any_src(Op::STORE).named("u"),
               [](const Match &m) -> UOp {
                 const UOp &u = m["u"];
                 if (u.size() < 2 || !is_weak(u.src(1).dtype()) || is_weak(u.src(0).dtype()))
                   return {};
                 std::vector<UOp> src = u.src();
                 src[1] = commit(src[1], u.src(0).dtype());
                 return u.with_src(std::move(src));
               }),
      });
  return pm;
}

// Post-order: leaves and casts get their width; the nodes above re-derive theirs from their
// operands (promotion).
const PatternMatcher &lower_index_rules() {
  static const PatternMatcher pm(
      "lower all index dtypes",
      {
          rule("index constant/variable/cast -> int32 (int64 beyond), weakfloat -> float",
               pat_any_src({Op::CONST, Op::PARAM, Op::BUFFER, Op::CAST, Op::BITCAST}).named("u"),
               [](const Match &m) { return lower_weak_leaf(m["u"]); }),
      });
  return pm;
}

const PatternMatcher &cast_fold_rules() {
  static const PatternMatcher pm(
      "lowered casts",
      {
          rule("CAST(t, x of dtype t) -> x", pat(Op::CAST, {var("x")}).named("c"),
               [](const Match &m) { return m["x"].dtype() == m["c"].dtype() ? m["x"] : UOp{}; }),
          rule("CAST(t, const) -> const of t", pat(Op::CAST, {cvar("x")}).named("c"),
               [](const Match &m) -> UOp {
                 const UOp &c = m["c"];
                 if (c.dtype().is_vector() || is_weak(m["x"].dtype())) return {};
                 if (!is_int(c.dtype()) && !is_float(c.dtype())) return {};
                 if (is_float(m["x"].dtype()) && !is_float(c.dtype())) return {};
                 return commit(m["x"], c.dtype());
               }),
      });
  return pm;
}

const PatternMatcher &cast_float_alu_rules() {
  static const PatternMatcher pm(
      "cast float alu operands",
      {
          rule("float-only ALU of another dtype -> of a cast operand",
               pat({Op::SIN, Op::LOG2, Op::EXP2, Op::SQRT, Op::RECIPROCAL}, {var("x")}).named("u"),
               [](const Match &m) -> UOp {
                 const UOp &u = m["u"];
                 if (m["x"].dtype() == u.dtype()) return {};
                 return u.with_src({UOp::make(Op::CAST, u.dtype(), {m["x"]}, u.dtype())});
               }),
      });
  return pm;
}

}  // namespace

UOp lower_index_dtypes(const UOp &sink) {
  UOp g = graph_rewrite(sink, commit_weak_rules(), detail::pass("commit weak operands"));
  g = graph_rewrite(g, lower_index_rules(), detail::pass("lower all index dtypes"));
  return graph_rewrite(g, cast_fold_rules(), detail::pass("fold lowered casts"));
}

UOp cast_float_alu_operands(const UOp &sink) {
  return graph_rewrite(sink, cast_float_alu_rules(), detail::pass("cast float alu operands"));
}

}  // namespace wavescope::compiler::lower
