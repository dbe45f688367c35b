// Stage 9, "expander": UPCAST and UNROLL ranges become vector lanes (front_half.hpp).
//
// An UPCAST/UNROLL range of extent n becomes STACK(0, 1, ..., n-1). Every node that depends on
// such ranges becomes a vector over the combinations of their values: the node's tag lists its
// axes (sorted by axis id; lane = row-major index over them, the first axis slowest) while the
// pass runs, and each operand is swizzled to the node's axes (a scalar broadcast, a vector's lanes
// picked). A REDUCE over unrolled ranges contracts them: its operand's lanes are ordered with the
// contracted axes leading and it becomes REDUCE(x, other ranges) with ReduceArg.axes = the number
// of lanes combined into one (a horizontal reduce). An END drops the ranges that became lanes.
// A second pass, "expander: drop tags", removes the axis tags.

#include <algorithm>
#include <map>

#include "graph_util.hpp"
#include "lanes.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

namespace wavescope::compiler::opt {
namespace {

using namespace rewrite;
using detail::lane;

struct ExpandContext {
  std::map<std::int64_t, std::int64_t> extents;  // axis id -> extent of the UPCAST/UNROLL range
};

using Axes = std::vector<std::int64_t>;

const Axes *axes_tag(const UOp &u) { return std::get_if<AxisList>(&u.tag()); }
Axes axes_of(const UOp &u) {
  const Axes *a = axes_tag(u);
  return a ? *a : Axes{};
}

std::size_t lanes_of(const ExpandContext &ctx, const Axes &axes) {
  std::size_t n = 1;
  for (auto a : axes) n *= static_cast<std::size_t>(ctx.extents.at(a));
  return n;
}

// `x` (lanes over `from`) rearranged to lanes over `to` (an order of axes that may add axes
// `from` lacks: those lanes repeat).
UOp swizzle(const ExpandContext &ctx, const UOp &x, const Axes &from, const Axes &to) {
  if (x.is_invalid() || from == to) return x;
  const std::size_t n = lanes_of(ctx, to);
  if (from.empty()) return detail::broadcast(x, n);
  std::vector<UOp> elements;
  elements.reserve(n);
  for (std::size_t t = 0; t < n; ++t) {
    std::map<std::int64_t, std::int64_t> digit;
    std::size_t rest = t;
    for (auto it = to.rbegin(); it != to.rend(); ++it) {
      const auto e = static_cast<std::size_t>(ctx.extents.at(*it));
      digit[*it] = static_cast<std::int64_t>(rest % e);
      rest /= e;
    }
    std::size_t s = 0;
    for (auto a : from) s = s * static_cast<std::size_t>(ctx.extents.at(a)) + digit[a];
    elements.push_back(lane(x, s));
  }
  return detail::stack(elements);
}

Axes sorted_union(const std::vector<Axes> &lists) {
  Axes out;
  for (const auto &l : lists) out.insert(out.end(), l.begin(), l.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

UOp expand_range(const ExpandContext &ctx, const UOp &r) {
  const auto &a = std::get<RangeArg>(r.arg());
  if (a.type != AxisType::Upcast && a.type != AxisType::Unroll) return {};
  auto it = ctx.extents.find(a.axis);
  if (it == ctx.extents.end()) return {};
  if (it->second == 1) return const_int(0, r.dtype());
  std::vector<UOp> values;
  for (std::int64_t i = 0; i < it->second; ++i) values.push_back(const_int(i, r.dtype()));
  return detail::stack(values).with_tag(AxisList{a.axis});
}

UOp expand_reduce(const ExpandContext &ctx, const UOp &u) {
  if (axes_tag(u)) return {};
  Axes contracted;
  std::vector<UOp> ranges;
  bool any = !axes_of(u.src(0)).empty();
  for (std::size_t k = 1; k < u.size(); ++k) {
    const Axes a = axes_of(u.src(k));
    if (a.empty()) {
      if (u.src(k).op() == Op::RANGE)
        ranges.push_back(u.src(k));
      else
        any = true;  // an unrolled range of extent 1: now a constant
    } else {
      any = true;
      contracted.insert(contracted.end(), a.begin(), a.end());
    }
  }
  if (!any) return {};
  contracted = sorted_union({contracted});
  const Axes from = axes_of(u.src(0));
  Axes out;
  for (auto a : from)
    if (std::find(contracted.begin(), contracted.end(), a) == contracted.end()) out.push_back(a);
  Axes order = contracted;
  order.insert(order.end(), out.begin(), out.end());
  std::vector<UOp> src{swizzle(ctx, u.src(0), from, order)};
  src.insert(src.end(), ranges.begin(), ranges.end());
  ReduceArg arg = std::get<ReduceArg>(u.arg());
  arg.axes = contracted.empty() ? 0 : static_cast<std::int64_t>(lanes_of(ctx, contracted));
  const auto n = static_cast<std::uint16_t>(lanes_of(ctx, out));
  return UOp::make(Op::REDUCE, u.dtype().base().vec(n), std::move(src), arg, AxisList(out));
}

UOp expand_end(const UOp &u) {
  std::vector<UOp> src{u.src(0)};
  for (std::size_t k = 1; k < u.size(); ++k)
    if (!axes_tag(u.src(k)) && u.src(k).op() == Op::RANGE) src.push_back(u.src(k));
  if (src.size() == u.size()) return {};
  return src.size() == 1 ? src[0] : u.with_src(std::move(src));
}

UOp expand_node(const ExpandContext &ctx, const UOp &u) {
  if (axes_tag(u)) return {};
  const std::size_t first = u.op() == Op::INDEX ? 1 : 0;
  if (u.op() == Op::INDEX && (u.size() < 2 || !detail::is_buffer(u.src(0)))) return {};
  std::vector<Axes> lists;
  for (std::size_t k = first; k < u.size(); ++k) lists.push_back(axes_of(u.src(k)));
  const Axes axes = sorted_union(lists);
  if (axes.empty()) return {};
  std::vector<UOp> src = u.src();
  for (std::size_t k = first; k < u.size(); ++k)
    src[k] = swizzle(ctx, u.src(k), axes_of(u.src(k)), axes);
  const auto n = static_cast<std::uint16_t>(lanes_of(ctx, axes));
  DType t = u.dtype().base().vec(n);
  if (u.op() == Op::STORE) t = dtypes::void_;
  if (u.op() == Op::INDEX) t = u.src(0).dtype().base().vec(n);
  return UOp::make(u.op(), t, std::move(src), u.arg(), AxisList(axes));
}

const PatternMatcher &expander_rules() {
  static const OpSet elementwise = ops::kElementwise | OpSet{Op::INDEX, Op::LOAD, Op::STORE};
  static const PatternMatcher pm(
      "expander",
      {
          rule("UPCAST/UNROLL range -> STACK of its values", pat_any_src(Op::RANGE).named("r"),
               [](const Match &m) { return expand_range(m.context<ExpandContext>(), m["r"]); }),
          rule("REDUCE over unrolled ranges -> horizontal REDUCE of the lanes",
               pat_any_src(Op::REDUCE).named("u"),
               [](const Match &m) { return expand_reduce(m.context<ExpandContext>(), m["u"]); }),
          rule("END drops the ranges that became lanes", pat_any_src(Op::END).named("u"),
               [](const Match &m) { return expand_end(m["u"]); }),
          rule("op of vectors -> vector op (operands swizzled to its lanes)",
               pat_any_src(elementwise).named("u"),
               [](const Match &m) { return expand_node(m.context<ExpandContext>(), m["u"]); }),
      });
  return pm;
}

const PatternMatcher &drop_tag_rules() {
  static const PatternMatcher pm(
      "expander: drop tags",
      {rule("node tagged with its lane axes -> untagged", pat_any_src(ops::kAll).named("x"),
            [](const Match &m) -> UOp { return axes_tag(m["x"]) ? m["x"].with_tag({}) : UOp{}; })});
  return pm;
}

}  // namespace

UOp expander(const UOp &sink) {
  ExpandContext ctx;
  for (const auto &r : detail::ranges_in(sink)) {
    const auto &a = std::get<RangeArg>(r.arg());
    if (a.type != AxisType::Upcast && a.type != AxisType::Unroll) continue;
    const std::int64_t n = detail::extent(r);
    if (n < 1)
      throw Error(ErrorKind::BadInput, "expander: an UPCAST/UNROLL range needs a constant extent");
    ctx.extents[a.axis] = n;
  }
  RewriteOptions o;
  o.name = "expander";
  o.context = ctx;
  UOp g = graph_rewrite(sink, expander_rules(), o);
  RewriteOptions d;
  d.name = "expander: drop tags";
  d.walk = true;  // children first, each node once: untagged children, then the node
  return graph_rewrite(g, drop_tag_rules(), d);
}

}  // namespace wavescope::compiler::opt
