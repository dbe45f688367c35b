// Kernel cost estimates (estimates.hpp).

#include "wavescope/compiler/kernel/estimates.hpp"

#include <set>
#include <unordered_map>

#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/ir/ops.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::kernel {
namespace {

using Extents = std::unordered_map<const UOpNode *, std::uint64_t>;

// A RANGE of a non-constant extent counts once.
Extents range_extents(const std::vector<UOp> &nodes) {
  Extents extents;
  for (const auto &u : nodes)
    if (u.op() == Op::RANGE) {
      const auto extent = u.size() > 0 ? u.src(0).const_value() : std::nullopt;
      extents[u.get()] = extent && *extent > 0 && fits_int64(*extent)
                             ? static_cast<std::uint64_t>(static_cast<std::int64_t>(*extent))
                             : 1;
    }
  return extents;
}

std::uint64_t trip_count(const Extents &extents, const std::vector<const UOpNode *> &ranges) {
  std::uint64_t n = 1;
  for (const UOpNode *r : ranges) n *= extents.at(r);
  return n;
}

bool counts_as_value_op(const UOp &u) {
  if (u.dtype().scalar == ScalarType::Index) return false;
  // A comparison of indices (a validity mask) is address arithmetic too.
  for (const auto &s : u.src())
    if (s.dtype().scalar != ScalarType::Index) return true;
  return u.size() == 0;
}

}  // namespace

Estimates estimate(const UOp &sink) {
  validate_kernel(sink);
  const auto nodes = toposort(sink);
  const auto open = open_ranges(nodes);
  const auto extents = range_extents(nodes);
  Estimates e;
  std::set<std::int64_t> read, written;
  for (const auto &u : nodes) {
    if (ops::kAlu.contains(u.op()) && counts_as_value_op(u))
      e.ops +=
          trip_count(extents, open.at(u.get())) * (u.op() == Op::MULACC ? 2 : 1) * u.dtype().lanes;
    else if (u.op() == Op::REDUCE)
      e.ops += trip_count(extents, open.at(u.src(0).get())) * u.dtype().lanes;
  }
  // A STORE's target INDEX is a write; every other INDEX of a PARAM is a read.
  std::set<const UOpNode *> store_targets;
  for (const auto &u : nodes)
    if (u.op() == Op::STORE && u.size() > 0) store_targets.insert(u.src(0).get());
  for (const auto &u : nodes)
    if (u.op() == Op::INDEX && u.size() > 0 && u.src(0).op() == Op::PARAM)
      if (const auto *p = std::get_if<ParamArg>(&u.src(0).arg()))
        (store_targets.count(u.get()) ? written : read).insert(p->slot);
  for (const auto &param : kernel_params(sink)) {
    const std::uint64_t size = static_cast<std::uint64_t>(param.size) * byte_size(param.dtype);
    e.bytes += size * (read.count(param.slot) + written.count(param.slot));
  }
  return e;
}

}  // namespace wavescope::compiler::kernel
