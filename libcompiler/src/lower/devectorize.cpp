// Stage 14: devectorize (passes.hpp).

#include "lower_util.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;
using detail::lane;

UOp stack(std::vector<UOp> lanes, DType base) {
  const auto n = static_cast<std::uint16_t>(lanes.size());
  return UOp::make(Op::STACK, base.vec(n), std::move(lanes));
}

// Lane k of a STACK: the element holding it.
UOp stack_lane(const UOp &s, Int k) {
  for (const auto &e : s.src()) {
    const unsigned n = e.dtype().lanes;
    if (k < n) return n == 1 ? e : lane(e, static_cast<unsigned>(static_cast<std::int64_t>(k)));
    k = k - Int(n);
  }
  return {};
}

// Lane k of x, already in the form the rule "lane k of a STACK" gives it (the rules below
// build their lanes directly so, instead of building INDEX(STACK, k) for that rule to fold).
UOp lane_of(const UOp &x, unsigned k) {
  if (x.op() == Op::STACK && x.dtype().is_vector())
    if (UOp e = stack_lane(x, k)) return e;
  return lane(x, k);
}

// An elementwise op on vectors as the STACK of the op on each lane.
UOp split_elementwise(const UOp &u) {
  const DType t = u.dtype();
  if (!t.is_vector() || t.is_pointer()) return {};
  for (const auto &s : u.src())
    if (s.dtype().lanes != t.lanes && !s.is_invalid() && s.dtype().lanes != 1) return {};
  Arg arg = u.arg();
  if (auto d = std::get_if<DType>(&arg)) arg = d->base();
  std::vector<UOp> lanes;
  for (unsigned k = 0; k < t.lanes; ++k) {
    std::vector<UOp> src;
    for (const auto &s : u.src()) src.push_back(lane_of(s, k));
    lanes.push_back(UOp::make(u.op(), t.base(), std::move(src), arg));
  }
  return stack(std::move(lanes), t.base());
}

const PatternMatcher &devectorize_rules() {
  static const PatternMatcher pm(
      "devectorize",
      {
          rule("vector ALU/CAST -> STACK of lanes", pat_any_src(ops::kElementwise).named("u"),
               [](const Match &m) { return split_elementwise(m["u"]); }),
          rule("vector LOAD(INDEX(buf, i)) -> STACK of lane loads",
               pat(Op::LOAD, {pat(Op::INDEX, {var("buf"), var("i")}).named("a")}).named("l"),
               [](const Match &m) -> UOp {
                 const UOp &i = m["i"];
                 if (!i.dtype().is_vector() || !detail::buffer_of(m["buf"])) return {};
                 const DType t = m["l"].dtype().base();
                 std::vector<UOp> lanes;
                 for (unsigned k = 0; k < i.dtype().lanes; ++k)
                   lanes.push_back(UOp::make(
                       Op::LOAD, t,
                       {UOp::make(Op::INDEX, t, {m["buf"], lane_of(i, k)}, m["a"].arg())}));
                 return stack(std::move(lanes), t);
               }),
          rule("vector STORE(INDEX(buf, i), v) -> GROUP of lane stores",
               pat(Op::STORE, {pat(Op::INDEX, {var("buf"), var("i")}).named("a"), var("v")})
                   .named("st"),
               [](const Match &m) -> UOp {
                 const UOp &i = m["i"];
                 if (!i.dtype().is_vector() || !detail::buffer_of(m["buf"])) return {};
                 const DType t = m["a"].dtype().base();
                 std::vector<UOp> stores;
                 for (unsigned k = 0; k < i.dtype().lanes; ++k)
                   stores.push_back(UOp::make(
                       Op::STORE, dtypes::void_,
                       {UOp::make(Op::INDEX, t, {m["buf"], lane_of(i, k)}), lane_of(m["v"], k)}));
                 return UOp::make(Op::GROUP, dtypes::void_, std::move(stores));
               }),
          rule("lane k of a STACK -> its element",
               pat(Op::INDEX, {pat_any_src(Op::STACK).named("s"), cvar("k")}),
               [](const Match &m) -> UOp {
                 auto k = m["k"].const_value();
                 if (!k || *k < 0) return {};
                 return stack_lane(m["s"], *k);
               }),
          rule("STACK of one element -> the element", pat({Op::STACK}, {var("x")}),
               [](const Match &m) { return m["x"]; }),
      });
  return pm;
}

}  // namespace

UOp devectorize(const UOp &sink) {
  static const PatternMatcher pm = symbolic::symbolic_simple() + devectorize_rules();
  return graph_rewrite(sink, pm, detail::pass("devectorize"));
}

}  // namespace wavescope::compiler::lower
