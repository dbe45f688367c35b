// "scalarize" (front_half.hpp): the vectors of the front half as scalars, for the renderers until
// the back half's devectorize takes over. A vector store becomes a GROUP of one store per lane;
// a lane of a vector value is computed from the same lane of its operands, down to the STACKs
// (their elements) and the buffer accesses (one scalar access per lane).

#include "lanes.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::opt {
namespace {

using namespace rewrite;
using detail::lane;

std::size_t lane_of(const UOp &select) {
  return static_cast<std::size_t>(*select.src(1).const_value());
}

// Lane k of x where x is an access (INDEX of a buffer, or LOAD of one).
UOp access_lane(const UOp &x, std::size_t k) {
  if (x.op() == Op::INDEX) {
    std::vector<UOp> src{x.src(0)};
    for (std::size_t i = 1; i < x.size(); ++i) src.push_back(lane(x.src(i), k));
    return UOp::make(Op::INDEX, x.dtype().base(), std::move(src), x.arg(), x.tag());
  }
  std::vector<UOp> src;
  for (const auto &s : x.src()) src.push_back(s.op() == Op::INDEX ? access_lane(s, k) : lane(s, k));
  return UOp::make(x.op(), x.dtype().base(), std::move(src), x.arg(), x.tag());
}

UOp select(const UOp &u) {
  if (!detail::is_lane_select(u)) return {};
  const UOp &v = u.src(0);
  const std::size_t k = lane_of(u);
  if (v.op() == Op::STACK) return v.src(k);
  if ((v.op() == Op::INDEX && detail::is_buffer(v.src(0))) ||
      (v.op() == Op::LOAD && v.src(0).op() == Op::INDEX))
    return access_lane(v, k);
  if (ops::kElementwise.contains(v.op())) {
    std::vector<UOp> src;
    for (const auto &s : v.src()) src.push_back(lane(s, k));
    return UOp::make(v.op(), v.dtype().base(), std::move(src), v.arg());
  }
  return {};
}

UOp split_store(const UOp &st) {
  const UOp &index = st.src(0);
  bool vector = index.dtype().lanes > 1;
  for (const auto &s : st.src()) vector |= s.dtype().lanes > 1;
  if (!vector || index.op() != Op::INDEX) return {};
  std::size_t n = index.dtype().lanes;
  for (const auto &s : st.src()) n = std::max<std::size_t>(n, s.dtype().lanes);
  std::vector<UOp> stores;
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<UOp> src{access_lane(index, k)};
    for (std::size_t i = 1; i < st.size(); ++i) src.push_back(lane(st.src(i), k));
    stores.push_back(UOp::make(Op::STORE, dtypes::void_, std::move(src)));
  }
  return UOp::make(Op::GROUP, dtypes::void_, std::move(stores));
}

}  // namespace

UOp scalarize(const UOp &sink) {
  static const PatternMatcher rules(
      "scalarize",
      {
          rule("lane k of a vector -> lane k of its operands (STACK: its element)",
               pat_any_src(Op::INDEX).named("u"), [](const Match &m) { return select(m["u"]); }),
          rule("vector STORE -> GROUP of one STORE per lane", pat_any_src(Op::STORE).named("s"),
               [](const Match &m) { return split_store(m["s"]); }),
      });
  // With sym: each lane's index math and gates simplify with the lane's constants (an interior
  // lane of a padded read loses its gate).
  static const PatternMatcher pm = rules + symbolic::sym();
  RewriteOptions o;
  o.name = "scalarize";
  return graph_rewrite(sink, pm, o);
}

}  // namespace wavescope::compiler::opt
