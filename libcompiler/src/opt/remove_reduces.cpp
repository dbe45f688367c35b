// Stage 10, "remove reduces", and stage 11, "add local buffers" (front_half.hpp).
//
// A REDUCE over ranges becomes an accumulator: a REG BUFFER of the REDUCE's lanes, a STORE of the
// identity before the loops (inside the loops of the value's other ranges), acc = acc op value
// inside END(..., reduce ranges), and a LOAD after them. Order is carried by AFTER: the init
// store's address is AFTER(acc, outer ranges...), the update's AFTER(acc, init, reduce
// ranges...), the final read's AFTER(acc, END(update)). A horizontal REDUCE (no ranges left)
// becomes explicit lane combinations. A REDUCE over GROUP_REDUCE ranges is split first: each
// work-item reduces its part, the parts go to a LOCAL stage indexed by (LOCAL ranges, group
// ranges), and a second REDUCE over new REDUCE ranges of the group extents reads them back.
// "add local buffers" turns the stage into a LOCAL BUFFER: STORE inside END(its ranges), a BARRIER
// after it, and AFTER(buffer, BARRIER) as the address of the reads.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "graph_util.hpp"
#include "lanes.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

namespace wavescope::compiler::opt {
namespace {

using namespace rewrite;
using detail::extent;
using detail::lane;

struct ReduceContext {
  std::int64_t acc = 0;        // REG buffers made
  std::int64_t next_axis = 0;  // for the ranges of second (group) reduces
};

struct LocalContext {
  std::int64_t next = 0;  // LOCAL buffers made
};

UOp identity(Op op, DType t) {
  if (op == Op::ADD) return is_float(t) ? const_float(0.0, t) : const_int(0, t);
  if (op == Op::MUL) return is_float(t) ? const_float(1.0, t) : const_int(1, t);
  if (is_bool(t)) return const_bool(false);
  return is_float(t) ? const_float(-INFINITY, t) : const_int(dtype_min(t), t);
}

UOp combine(Op op, const UOp &a, const UOp &b) { return UOp::make(op, a.dtype(), {a, b}); }

// The index vector of `lanes` consecutive elements from `base` (a scalar index).
UOp lane_index(const UOp &base, std::size_t lanes) {
  if (lanes == 1) return base;
  std::vector<UOp> idx;
  const auto c = base.const_value();
  for (std::size_t k = 0; k < lanes; ++k) {
    const auto off = static_cast<std::int64_t>(k);
    idx.push_back(c ? const_int(*c + off, base.dtype())
                    : (k == 0 ? base : base + const_int(off, base.dtype())));
  }
  return detail::stack(idx);
}

// Row-major flat index of `ranges` (the first slowest).
UOp flat_index(const std::vector<UOp> &ranges, std::size_t lanes) {
  UOp flat;
  for (const auto &r : ranges) flat = flat ? flat * const_int(extent(r)) + r : r;
  if (!flat) return const_int(0);
  return lanes == 1 ? flat : flat * const_int(static_cast<std::int64_t>(lanes));
}

UOp horizontal(const UOp &red) {
  const UOp &x = red.src(0);
  const auto arg = std::get<ReduceArg>(red.arg());
  const auto h = static_cast<std::size_t>(std::max<std::int64_t>(arg.axes, 1));
  const std::size_t lanes = x.dtype().lanes;
  if (h == 1) return x;
  const std::size_t m = lanes / h;
  std::vector<UOp> out;
  for (std::size_t j = 0; j < m; ++j) {
    UOp acc = lane(x, j);
    for (std::size_t i = 1; i < h; ++i) acc = combine(arg.op, acc, lane(x, i * m + j));
    out.push_back(acc);
  }
  return detail::stack(out);
}

UOp group_reduce(ReduceContext &ctx, const UOp &red) {
  std::vector<UOp> group, rest;
  for (std::size_t k = 1; k < red.size(); ++k) {
    const UOp &r = red.src(k);
    (r.op() == Op::RANGE && detail::axis_type(r) == AxisType::GroupReduce ? group : rest)
        .push_back(r);
  }
  if (group.empty()) return {};
  const auto arg = std::get<ReduceArg>(red.arg());
  std::vector<UOp> locals;
  for (const auto &r : detail::ranges_in(red))
    if (detail::axis_type(r) == AxisType::Local) locals.push_back(r);
  std::vector<UOp> src{red.src(0)};
  src.insert(src.end(), rest.begin(), rest.end());
  const UOp partial = UOp::make(Op::REDUCE, red.dtype(), std::move(src), arg);
  std::vector<UOp> stage_ranges = locals;
  stage_ranges.insert(stage_ranges.end(), group.begin(), group.end());
  std::vector<UOp> stage_src{partial};
  stage_src.insert(stage_src.end(), stage_ranges.begin(), stage_ranges.end());
  ParamArg p;
  p.dtype = red.dtype().base();
  p.addrspace = AddrSpace::Local;
  const UOp stage = UOp::make(Op::STAGE, red.dtype(), std::move(stage_src), p);
  std::vector<UOp> loop = locals, second;
  for (const auto &g : group) {
    const UOp r = range(g.src(0), ctx.next_axis++, AxisType::Reduce);
    loop.push_back(r);
    second.push_back(r);
  }
  const std::size_t lanes = red.dtype().lanes;
  const UOp idx = lane_index(flat_index(loop, lanes), lanes);
  const UOp read =
      UOp::make(Op::LOAD, red.dtype(), {UOp::make(Op::INDEX, red.dtype(), {stage, idx})});
  std::vector<UOp> out{read};
  out.insert(out.end(), second.begin(), second.end());
  return UOp::make(Op::REDUCE, red.dtype(), std::move(out), ReduceArg{arg.op, 0});
}

UOp accumulate(ReduceContext &ctx, const UOp &red) {
  std::vector<UOp> ranges;
  for (std::size_t k = 1; k < red.size(); ++k) {
    if (red.src(k).op() != Op::RANGE) return {};
    if (detail::axis_type(red.src(k)) == AxisType::GroupReduce) return {};
    ranges.push_back(red.src(k));
  }
  if (ranges.empty()) return {};
  const auto arg = std::get<ReduceArg>(red.arg());
  const UOp &x = red.src(0);
  const DType t = red.dtype();
  const std::size_t lanes = t.lanes;
  ParamArg p;
  p.slot = ctx.acc;
  p.dtype = t.base();
  p.name = fmt::format("acc{}", ctx.acc++);
  p.addrspace = AddrSpace::Reg;
  const UOp acc = UOp::make(Op::BUFFER, t.base(), {const_int(static_cast<std::int64_t>(lanes))}, p);
  const UOp idx = lane_index(const_int(0), lanes);
  auto at = [&](const std::vector<UOp> &deps) {
    if (deps.empty()) return UOp::make(Op::INDEX, t, {acc, idx});
    std::vector<UOp> src{acc};
    src.insert(src.end(), deps.begin(), deps.end());
    return UOp::make(Op::INDEX, t, {UOp::make(Op::AFTER, acc.dtype(), std::move(src)), idx});
  };
  std::vector<UOp> outer;
  for (const auto &r : detail::open_ranges_of(x))
    if (std::find(ranges.begin(), ranges.end(), r) == ranges.end()) outer.push_back(r);
  const UOp init = UOp::make(Op::STORE, dtypes::void_,
                             {at(outer), detail::broadcast(identity(arg.op, t.base()), lanes)});
  std::vector<UOp> deps{init};
  deps.insert(deps.end(), ranges.begin(), ranges.end());
  const UOp target = at(deps);
  const UOp value = arg.axes > 1 ? UOp::make(Op::REDUCE, t, {x}, arg) : x;
  const UOp current = UOp::make(Op::LOAD, t, {target});
  const UOp update =
      UOp::make(Op::STORE, dtypes::void_, {target, UOp::make(arg.op, t, {current, value})});
  std::vector<UOp> end{update};
  end.insert(end.end(), ranges.begin(), ranges.end());
  return UOp::make(Op::LOAD, t, {at({UOp::make(Op::END, dtypes::void_, std::move(end))})});
}

const PatternMatcher &remove_reduce_rules() {
  static const PatternMatcher pm(
      "remove reduces",
      {
          rule("REDUCE over GROUP_REDUCE ranges -> partial REDUCE, LOCAL stage, REDUCE of it",
               pat_any_src(Op::REDUCE).named("r"),
               [](const Match &m) { return group_reduce(m.context<ReduceContext>(), m["r"]); }),
          rule("REDUCE over ranges -> REG accumulator (init, update in the loop, read after)",
               pat_any_src(Op::REDUCE).named("r"),
               [](const Match &m) { return accumulate(m.context<ReduceContext>(), m["r"]); }),
          rule("horizontal REDUCE -> lane combinations", pat(Op::REDUCE, {var("x")}).named("r"),
               [](const Match &m) { return horizontal(m["r"]); }),
      });
  return pm;
}

UOp local_buffer(LocalContext &ctx, const UOp &stage) {
  const DType t = stage.dtype();
  const std::size_t lanes = t.lanes;
  std::vector<UOp> ranges(stage.src().begin() + 1, stage.src().end());
  std::int64_t size = static_cast<std::int64_t>(lanes);
  for (const auto &r : ranges) {
    if (extent(r) < 1) throw Error(ErrorKind::BadInput, "add local buffers: a symbolic extent");
    size *= extent(r);
  }
  ParamArg p = std::get<ParamArg>(stage.arg());
  p.slot = ctx.next;
  p.name = fmt::format("local{}", ctx.next++);
  p.dtype = t.base();
  p.addrspace = AddrSpace::Local;
  const UOp buf = UOp::make(Op::BUFFER, t.base(), {const_int(size)}, p);
  const UOp idx = lane_index(flat_index(ranges, lanes), lanes);
  const UOp store =
      UOp::make(Op::STORE, dtypes::void_, {UOp::make(Op::INDEX, t, {buf, idx}), stage.src(0)});
  std::vector<UOp> end{store};
  end.insert(end.end(), ranges.begin(), ranges.end());
  const UOp body = ranges.empty() ? store : UOp::make(Op::END, dtypes::void_, std::move(end));
  return UOp::make(Op::AFTER, buf.dtype(), {buf, UOp::make(Op::BARRIER, dtypes::void_, {body})});
}

}  // namespace

UOp remove_reduces(const UOp &sink) {
  ReduceContext ctx;
  for (const auto &r : detail::ranges_in(sink))
    ctx.next_axis = std::max(ctx.next_axis, std::get<RangeArg>(r.arg()).axis + 1);
  RewriteOptions o;
  o.name = "remove reduces";
  o.context = ctx;
  return graph_rewrite(sink, remove_reduce_rules(), o);
}

UOp add_local_buffers(const UOp &sink) {
  LocalContext ctx;
  static const PatternMatcher pm(
      "add local buffers", {rule("LOCAL stage -> LOCAL BUFFER, STORE in its loops, BARRIER, AFTER",
                                 pat_any_src(Op::STAGE).named("s"), [](const Match &m) {
                                   return local_buffer(m.context<LocalContext>(), m["s"]);
                                 })});
  RewriteOptions o;
  o.name = "add local buffers";
  o.context = ctx;
  return graph_rewrite(sink, pm, o);
}

}  // namespace wavescope::compiler::opt
