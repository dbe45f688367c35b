// Stage 12, "add gpudims" (front_half.hpp): on GPU targets the GLOBAL ranges become workgroup ids
// (gidxN) and the LOCAL/GROUP_REDUCE ranges work-item ids (lidxN). The global dims are given
// gidx in reverse (the last GLOBAL axis is x, so neighbouring work-items touch neighbouring
// elements), the local dims in order. Dims that exceed the target's limits or are more than three
// are merged with a neighbour or split (the index math recovers each range from the ids). A store
// to global memory that does not depend on some local range is gated to that range's id 0.

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "graph_util.hpp"
#include "ir/graph_having.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/opt/range_passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::opt {
namespace {

using namespace rewrite;
using Dims = std::vector<std::int64_t>;

std::int64_t product(const Dims &d, std::size_t from = 0) {
  std::int64_t n = 1;
  for (std::size_t i = from; i < d.size(); ++i) n *= d[i];
  return n;
}

std::optional<Dims> group_dims(Dims dims, const std::array<std::int64_t, 3> &max) {
  auto too_big = [&] {
    if (dims.size() > max.size()) return true;
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (dims[i] > max[i]) return true;
    return false;
  };
  while (too_big()) {
    bool merged = false;
    for (std::size_t i = 0; i < max.size() && !merged; ++i)
      if (i + 1 < dims.size() && dims[i] * dims[i + 1] <= max[i]) {
        dims[i] *= dims[i + 1];
        dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        merged = true;
      }
    if (!merged) return std::nullopt;
  }
  return dims;
}

Dims split_dims(const Dims &dims, const std::array<std::int64_t, 3> &max) {
  bool fits = true;
  for (std::size_t i = 0; i < dims.size(); ++i) fits &= dims[i] <= max[i];
  if (fits) return dims;
  Dims d = dims;
  d.resize(3, 1);
  for (std::size_t i = 0; i < d.size(); ++i)
    while (d[i] > max[i]) {
      std::int64_t div = 1;
      for (std::int64_t k = 2; k * k <= d[i]; ++k)
        if (d[i] % k == 0) {
          div = k;
          break;
        }
      if (div == 1)
        throw Error(ErrorKind::BadInput,
                    fmt::format("add gpudims: a launch dimension of {} exceeds the limit {} and "
                                "has no divisor to split it",
                                d[i], max[i]));
      d[i] /= div;
      d[(i + 1) % d.size()] *= div;
    }
  for (std::size_t i = 0; i < d.size(); ++i)  // (tinygrad does not check this)
    if (d[i] > max[i])
      throw Error(
          ErrorKind::BadInput,
          fmt::format("add gpudims: {} launch items do not fit the target's limits {}x{}x{}",
                      d[0] * d[1] * d[2], max[0], max[1], max[2]));
  if (d[2] == 1) d.resize(2);
  return d;
}

// Per dim, its index from SPECIAL ids `prefix`0.. (tinygrad's get_grouped_dims).
std::vector<UOp> grouped_dims(const std::string &prefix, Dims dims,
                              const std::array<std::int64_t, 3> &max, bool reverse) {
  if (reverse) {
    std::reverse(dims.begin(), dims.end());
    auto out = grouped_dims(prefix, dims, max, false);
    std::reverse(out.begin(), out.end());
    return out;
  }
  auto grouped = group_dims(dims, max);
  Dims limited = grouped ? *grouped : dims;
  if (limited.size() > max.size())
    throw Error(ErrorKind::BadInput,
                fmt::format("add gpudims: {} launch dimensions do not fit in 3", dims.size()));
  if (limited == dims) limited = split_dims(dims, max);
  std::vector<UOp> ids;
  for (std::size_t i = 0; i < limited.size(); ++i)
    ids.push_back(special(const_int(limited[i]), fmt::format("{}{}", prefix, i)));
  if (limited == dims) return ids;
  UOp flat;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const UOp term = ids[i] * const_int(product(limited, i + 1));
    flat = flat ? flat + term : term;
  }
  std::vector<UOp> out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    UOp x = floordiv(flat, const_int(product(dims, i + 1)));
    if (i > 0) x = floormod(x, const_int(dims[i]));
    out.push_back(symbolic::simplify(x, symbolic::sym(), "simplify"));
  }
  return out;
}

struct GpuContext {
  const Target *target = nullptr;
};

UOp gpudims(const GpuContext &ctx, const UOp &sink) {
  const auto nodes = toposort_having(sink, {Op::SPECIAL, Op::RANGE, Op::STORE});
  for (const auto &n : nodes)
    if (n.op() == Op::SPECIAL) return {};
  std::map<std::int64_t, UOp> global, local;
  for (const auto &n : nodes) {
    if (n.op() != Op::RANGE || !std::holds_alternative<RangeArg>(n.arg())) continue;
    const auto &a = std::get<RangeArg>(n.arg());
    if (a.type == AxisType::Global || a.type == AxisType::Thread) global[a.axis] = n;
    if (a.type == AxisType::Warp || a.type == AxisType::Local || a.type == AxisType::GroupReduce)
      local[a.axis] = n;
  }
  if (global.empty() && local.empty()) return {};
  Dims gshape, lshape;
  // A GLOBAL range whose extent depends on a variable (tinygrad's symbolic shapes) launches for
  // the extent's largest value; the work-items past the actual extent touch no memory (below).
  std::vector<std::pair<UOp, UOp>> symbolic;  // (range, extent)
  for (const auto &[axis, r] : global) {
    if (detail::extent(r) >= 1) {
      gshape.push_back(detail::extent(r));
      continue;
    }
    const Int top = r.src(0).vmax();
    if (top < 1 || top > std::numeric_limits<std::int32_t>::max())
      throw Error(
          ErrorKind::BadInput,
          fmt::format("add gpudims: a symbolic GLOBAL extent of at most {} items", to_string(top)));
    gshape.push_back(static_cast<std::int64_t>(top));
    symbolic.emplace_back(r, r.src(0));
  }
  for (const auto &[axis, r] : local) {
    if (detail::extent(r) < 1)
      throw Error(ErrorKind::BadInput, "add gpudims: a symbolic LOCAL extent");
    lshape.push_back(detail::extent(r));
  }
  const Target &t = *ctx.target;
  auto lids = grouped_dims("lidx", lshape, t.local_max, false);
  auto gids = grouped_dims("gidx", gshape, t.global_max, true);
  std::unordered_map<UOp, UOp> map;
  std::size_t i = 0;
  for (const auto &[axis, r] : global) map.emplace(r, gids[i++]);
  i = 0;
  for (const auto &[axis, r] : local) map.emplace(r, lids[i++]);
  // Stores to global memory that do not depend on a local range: only its id 0 stores. With a
  // symbolic GLOBAL extent, every access to global memory through such a range is gated to the
  // range's actual extent (a load outside it reads nothing, a store outside it writes nothing).
  std::unordered_map<UOp, UOp> gated;
  // The INDEX of every STORE (its index may hold no range), then with a symbolic extent every
  // other INDEX that holds one.
  std::vector<UOp> indices;
  std::unordered_map<UOp, bool> stored;
  for (const auto &n : nodes)
    if (n.op() == Op::STORE && stored.emplace(n.src(0), true).second) indices.push_back(n.src(0));
  if (!symbolic.empty())
    for (const auto &n : nodes)
      if (n.op() == Op::INDEX && !stored.count(n)) indices.push_back(n);
  for (const auto &index : indices) {
    if (index.op() != Op::INDEX || index.size() != 2) continue;
    const bool store = stored.count(index) > 0;
    const UOp &buf = index.src(0);
    if (buf.op() != Op::PARAM) continue;
    const auto ranges = detail::ranges_in(index.src(1));
    auto uses = [&](const UOp &r) {
      return std::find(ranges.begin(), ranges.end(), r) != ranges.end();
    };
    UOp mask;
    if (store)
      for (const auto &[axis, r] : local)
        if (!uses(r)) {
          const UOp z = eq(r, const_int(0, r.dtype()));
          mask = mask ? bit_and(mask, z) : z;
        }
    for (const auto &[r, extent] : symbolic)
      if (uses(r)) {
        const UOp in = lt(r, cast(extent, r.dtype()));
        mask = mask ? bit_and(mask, in) : in;
      }
    if (!mask) continue;
    const UOp old = detail::gate_of(index.src(1));
    const UOp gate = old ? bit_and(old, mask) : mask;
    gated.emplace(index, index.with_src({buf, where(gate, detail::index_of(index.src(1)),
                                                    compiler::invalid())}));
  }
  // The gated indices with their ranges replaced too (substitute does not enter replacements).
  for (auto &[index, g] : gated) map.emplace(index, substitute(g, map));
  return substitute(sink, map);
}

}  // namespace

UOp add_gpudims(const UOp &sink, const Target &target, lower::Launch &launch) {
  launch = {};
  GpuContext ctx{&target};
  static const PatternMatcher pm =
      PatternMatcher("add gpudims",
                     {rule("SINK: GLOBAL/LOCAL/GROUP_REDUCE ranges -> gidx/lidx ids, stores "
                           "gated to local id 0",
                           pat_any_src(Op::SINK).named("s"),
                           [](const Match &m) -> UOp {
                             const auto &c = m.context<GpuContext>();
                             return c.target->gpu ? gpudims(c, m["s"]) : UOp{};
                           })}) +
      flatten_range_rules();
  RewriteOptions o;
  o.name = "add gpudims";
  o.context = ctx;
  UOp g = graph_rewrite(sink, pm, o);
  for (const auto &n : toposort_having(g, Op::SPECIAL)) {
    if (n.op() != Op::SPECIAL) continue;
    const auto &name = std::get<std::string>(n.arg());
    const auto dim = static_cast<std::size_t>(name.back() - '0');
    if (dim > 2) continue;
    (name.rfind("gidx", 0) == 0 ? launch.workgroups : launch.local)[dim] =
        static_cast<std::int64_t>(n.vmax() + 1);
  }
  return g;
}

}  // namespace wavescope::compiler::opt
