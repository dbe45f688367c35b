// Stage 10 for scalar reduces (passes.hpp: remove_reduces), until the front half's pass lands.

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "lower_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

struct ReduceContext {
  std::int64_t next_acc = 0;
  std::int64_t next_axis = 0;
  std::unordered_set<const UOpNode *> claimed;  // RANGEs an accumulator loop already closes
};

UOp identity(Op op, DType t) {
  if (op == Op::ADD) return const_int(0, t);
  if (op == Op::MUL) return const_int(1, t);
  if (is_float(t)) return const_float(-INFINITY, t);
  return const_int(dtype_min(t), t);
}

UOp reduce_to_accumulator(const UOp &r, ReduceContext &ctx) {
  auto arg = std::get_if<ReduceArg>(&r.arg());
  if (!arg || r.size() < 2 || r.dtype().is_vector()) return {};
  const DType t = r.dtype();
  UOp value = r.src(0);
  std::vector<UOp> ranges(r.src().begin() + 1, r.src().end());
  // A RANGE another reduce already loops over gets a clone here.
  std::unordered_map<UOp, UOp> clones;
  for (auto &rg : ranges) {
    if (rg.op() != Op::RANGE) return {};
    if (ctx.claimed.insert(rg.get()).second) continue;
    auto ra = std::get<RangeArg>(rg.arg());
    ra.axis = ctx.next_axis++;
    const UOp clone = UOp::make(Op::RANGE, rg.dtype(), rg.src(), ra, rg.tag());
    ctx.claimed.insert(clone.get());
    clones.emplace(rg, clone);
    rg = clone;
  }
  if (!clones.empty()) value = substitute(value, clones);

  ParamArg pa;
  pa.slot = ctx.next_acc++;
  pa.dtype = t;
  pa.addrspace = AddrSpace::Reg;
  pa.name = "acc" + std::to_string(pa.slot);
  const UOp acc = UOp::make(Op::BUFFER, t, {const_int(1)}, pa);
  // the loops the value sits in besides the reduce's own: the accumulator is set inside them
  std::unordered_set<const UOpNode *> own, ended;
  for (const auto &rg : ranges) own.insert(rg.get());
  const auto body = toposort(value);
  for (const UOp &x : body)
    if (x.op() == Op::END)
      for (std::size_t k = 1; k < x.size(); ++k) ended.insert(x.src(k).get());
  std::vector<UOp> outer{acc};
  for (const UOp &x : body)
    if (x.op() == Op::RANGE && !own.count(x.get()) && !ended.count(x.get())) outer.push_back(x);
  const UOp zero = const_int(0);
  const UOp before = outer.size() == 1 ? acc : UOp::make(Op::AFTER, t, outer);
  const UOp init = UOp::make(Op::STORE, dtypes::void_,
                             {UOp::make(Op::INDEX, t, {before, zero}), identity(arg->op, t)});
  std::vector<UOp> inner{acc, init};
  inner.insert(inner.end(), ranges.begin(), ranges.end());
  const UOp slot = UOp::make(Op::INDEX, t, {UOp::make(Op::AFTER, t, inner), zero});
  UOp combined;
  if (arg->op == Op::MAX)
    combined = UOp::make(Op::MAX, t, {slot, value});
  else
    combined = UOp::make(arg->op, t, {slot, value});
  std::vector<UOp> end{UOp::make(Op::STORE, dtypes::void_, {slot, combined})};
  end.insert(end.end(), ranges.begin(), ranges.end());
  const UOp loop = UOp::make(Op::END, dtypes::void_, std::move(end));
  return UOp::make(Op::INDEX, t, {UOp::make(Op::AFTER, t, {acc, loop}), zero});
}

const PatternMatcher &remove_reduce_rules() {
  static const PatternMatcher pm(
      "remove reduces",
      {
          rule("REDUCE over RANGEs -> REG accumulator (init, update in the loop, read after)",
               pat_any_src(Op::REDUCE).named("r"),
               [](const Match &m) {
                 return reduce_to_accumulator(m["r"], m.context<ReduceContext>());
               }),
      });
  return pm;
}

}  // namespace

UOp remove_reduces(const UOp &sink) {
  ReduceContext ctx;
  for (const UOp &u : toposort(sink)) {
    if (auto ra = std::get_if<RangeArg>(&u.arg()); ra && u.op() == Op::RANGE)
      ctx.next_axis = std::max(ctx.next_axis, ra->axis + 1);
    if (u.op() == Op::END)  // a store loop's ranges are its own
      for (std::size_t k = 1; k < u.size(); ++k) ctx.claimed.insert(u.src(k).get());
  }
  auto options = detail::pass("remove reduces");
  options.context = ctx;
  return graph_rewrite(sink, remove_reduce_rules(), options);
}

}  // namespace wavescope::compiler::lower
