// The heuristic (heuristic.hpp) and stage 7, apply_opts (scheduler.hpp).

#include "wavescope/compiler/opt/heuristic.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

#include "graph_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"

namespace wavescope::compiler::opt {
namespace {

using detail::extent;

std::int64_t product(const std::vector<std::int64_t> &shape, const std::vector<std::size_t> &axes) {
  std::int64_t n = 1;
  for (auto a : axes) n *= shape[a];
  return n;
}

bool contains(const std::vector<UOp> &list, const UOp &u) {
  return std::find(list.begin(), list.end(), u) != list.end();
}

bool try_opt(Scheduler &k, const Opt &opt) {
  try {
    k.apply_opt(opt);
    return true;
  } catch (const InvalidOpt &) {
    return false;
  }
}

// Matrix-vector: GROUP the reduce across 8 threads, 4 rows per workgroup, 4 rows per thread.
bool matvec(Scheduler &k) {
  const Target &t = k.target();
  const UOp red = k.reduceop();
  if (!t.has_local || !t.has_shared || !red || k.full_shape().size() < 2) return false;
  if (std::get<ReduceArg>(red.arg()).op != Op::ADD) return false;
  const UOp &mul = red.src(0);
  if (mul.op() != Op::MUL || mul.src(0).op() != Op::INDEX || mul.src(1).op() != Op::INDEX)
    return false;
  const UOp idx0 = detail::index_of(mul.src(0).src(1)), idx1 = detail::index_of(mul.src(1).src(1));
  const auto reduces = k.ranges_of({AxisType::Reduce});
  if (reduces.empty()) return false;
  const UOp &first = reduces[0];
  std::vector<UOp> terms;
  detail::split_add(idx0, terms);
  if (!contains(terms, first)) return false;
  const auto r1 = detail::ranges_in(idx1);
  for (const auto &r : detail::ranges_in(idx0))
    if (!contains(r1, r)) return false;
  for (auto g : k.axes_of({AxisType::Global})) {
    if (extent(first) % 8 != 0 || k.full_shape()[g] % 16 != 0) continue;
    try_opt(k, {OptOp::Group, 0, 8});
    try_opt(k, {OptOp::Local, static_cast<std::int64_t>(g), 4});
    try_opt(k, {OptOp::Upcast, static_cast<std::int64_t>(g), 4});
    return true;
  }
  return false;
}

void upcast_masked(Scheduler &k) {
  std::vector<UOp> gated;
  for (const auto &u : k.nodes())
    if (u.op() == Op::WHERE)
      for (const auto &r : detail::ranges_in(u.src(0))) gated.push_back(r);
  const auto shape = k.full_shape();
  const auto rngs = k.rngs();
  std::vector<std::size_t> to_upcast;
  for (auto axis : k.upcastable_dims())
    if (shape[axis] <= 7 && contains(gated, rngs[axis]) &&
        product(shape, to_upcast) * shape[axis] <= 7 * 7)
      to_upcast.push_back(axis);
  for (auto it = to_upcast.rbegin(); it != to_upcast.rend(); ++it)
    try_opt(k, {OptOp::Upcast, static_cast<std::int64_t>(*it), 0});
}

void upcast_broadcast_axes(Scheduler &k) {
  std::set<std::size_t> upcasted_axis;
  for (;;) {
    const auto out = k.output_shape();
    if (product(out, k.upcastable_dims()) < 1024 || k.upcast_size() >= 32) return;
    const auto shape = k.full_shape();
    const auto rngs = k.rngs();
    const auto up = k.ranges_of({AxisType::Upcast, AxisType::Unroll});
    const auto bufs = k.bufs();
    std::vector<std::tuple<std::int64_t, std::int64_t, std::size_t, std::int64_t>> choices;
    for (auto axis : k.upcastable_dims())
      for (std::int64_t amount : {3, 4}) {
        if (upcasted_axis.count(axis) || shape[axis] % amount != 0) continue;
        const UOp &rng = rngs[axis];
        bool broadcast = false;
        for (const auto &b : bufs) {
          const UOp idx = detail::index_of(b.src(1));
          if (in_graph(idx, rng)) continue;
          bool all_up = true;
          for (const auto &r : up) all_up &= in_graph(idx, r);
          broadcast |= all_up;
        }
        if (!broadcast) continue;
        std::int64_t num = 0, sum = 0;
        for (const auto &b : bufs) {
          const UOp idx = detail::index_of(b.src(1));
          num += in_graph(idx, rng);
          std::vector<UOp> terms;
          detail::split_add(idx, terms);
          for (const auto &c : terms) {
            if (c == rng) sum += 1;
            if (c.op() == Op::MUL && c.src(0) == rng && c.src(1).is_const())
              sum += static_cast<std::int64_t>(c.src(1).const_value().value_or(0));
            if (c.op() == Op::MUL && c.src(1) == rng && c.src(0).is_const())
              sum += static_cast<std::int64_t>(c.src(0).const_value().value_or(0));
          }
        }
        choices.emplace_back(num, sum, axis, amount);
      }
    if (choices.empty()) return;
    std::sort(choices.begin(), choices.end());
    const auto [num, sum, axis, amount] = choices.front();
    if (!try_opt(k, {OptOp::Upcast, static_cast<std::int64_t>(axis), amount})) return;
    upcasted_axis.insert(axis);
  }
}

void unroll(Scheduler &k) {
  try {
    auto dims = k.unrollable_dims();
    if (dims.empty() ||
        !((k.upcast_size() <= 4 || k.axes_of({AxisType::Unroll}).empty()) && k.upcast_size() < 64))
      return;
    const std::int64_t s = k.full_shape()[dims.back()];
    const auto last = static_cast<std::int64_t>(dims.size()) - 1;
    if (s <= 32) {
      k.apply_opt({OptOp::Unroll, last, 0});
      dims = k.unrollable_dims();
      if (!dims.empty() && s <= 3 && k.full_shape()[dims.back()] <= 3)
        k.apply_opt({OptOp::Unroll, static_cast<std::int64_t>(dims.size()) - 1, 0});
    } else if (k.full_shape()[dims.back()] % 4 == 0) {
      k.apply_opt({OptOp::Unroll, last, 4});
    }
  } catch (const InvalidOpt &) {
  }
}

void locals(Scheduler &k) {
  const auto rngs = k.rngs();
  const auto bufs = k.bufs();
  std::vector<std::pair<bool, std::size_t>> ranking;
  for (auto axis : k.axes_of({AxisType::Global, AxisType::Weak, AxisType::Loop})) {
    if (extent(rngs[axis]) < 0) continue;
    bool expand = false;
    for (const auto &b : bufs) expand |= !in_graph(detail::index_of(b.src(1)), rngs[axis]);
    ranking.emplace_back(expand, axis);
  }
  std::sort(ranking.begin(), ranking.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first > b.first : a.second > b.second;
  });
  const auto shape = k.full_shape();
  std::vector<std::pair<std::size_t, std::int64_t>> to_local;
  for (const auto &[expand, axis] : ranking) {
    std::int64_t local_size = 1;
    for (const auto &[a, sz] : to_local) local_size *= sz;
    std::vector<std::int64_t> sizes{16, 8, 4, 3, 2};
    if (axis == 0) sizes.insert(sizes.begin(), 32);
    for (auto x : sizes)
      if (shape[axis] % x == 0 && local_size * x <= 128) {
        to_local.emplace_back(axis, x);
        break;
      }
  }
  if (to_local.size() > 3) to_local.resize(3);
  std::sort(to_local.begin(), to_local.end());
  std::size_t deleted = 0;
  for (auto [axis, sz] : to_local) {
    axis -= deleted;
    const bool will_delete = sz == k.full_shape()[axis];
    if (try_opt(k, {OptOp::Local, static_cast<std::int64_t>(axis), sz})) deleted += will_delete;
  }
}

void threads(Scheduler &k) {
  const Target &t = k.target();
  if (!t.has_threads || t.threads < 2) return;  // one thread: no THREAD split fits
  const auto shape = k.full_shape();
  const std::int64_t ops =
      std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
  for (std::int64_t n : {32, 16, 12, 8, 6, 5, 4, 3, 2}) {
    if (n > t.threads || ops / (128 << 10) < n) continue;
    for (auto axis : k.axes_of({AxisType::Weak, AxisType::Loop}))
      if (k.full_shape()[axis] % n == 0) {
        try_opt(k, {OptOp::Thread, static_cast<std::int64_t>(axis), n});
        break;
      }
    if (!k.applied_opts().empty() && k.applied_opts().back().op == OptOp::Thread) return;
  }
}

}  // namespace

void hand_coded_optimizations(Scheduler &k) {
  if (matvec(k)) return;
  if (k.target().has_local && product(k.output_shape(), k.upcastable_dims()) <= 2048) {
    // (an axis past the reduce axes is an invalid opt: not tried, no exception thrown)
    const auto reduce_axes = static_cast<std::int64_t>(k.axes_of({AxisType::Reduce}).size());
    for (std::int64_t axis : {0, 1, 2})
      if (axis >= reduce_axes || try_opt(k, {OptOp::GroupTop, axis, 16})) break;
  }
  if (k.group_for_reduces()) return;
  upcast_masked(k);
  upcast_broadcast_axes(k);
  unroll(k);
  if (!k.upcasted()) {
    const auto dims = k.upcastable_dims();
    if (!dims.empty() && k.full_shape()[dims.back()] % 4 == 0)
      try_opt(k, {OptOp::Upcast, static_cast<std::int64_t>(dims.back()), 4});
  }
  if (k.target().has_local) locals(k);
  threads(k);
}

UOp apply_opts(const UOp &sink, const Target &target) {
  Scheduler k(sink, target);
  k.convert_loop_to_global();
  const KernelInfo info = kernel_info_of(sink);
  if (info.opts_to_apply) {
    for (const auto &o : *info.opts_to_apply) k.apply_opt(o);
  } else if (info.applied_opts.empty()) {
    hand_coded_optimizations(k);
  }
  return k.optimized_ast();
}

}  // namespace wavescope::compiler::opt
