// Helpers of the front-half passes (graph_util.hpp).

#include "graph_util.hpp"

#include <algorithm>

#include <llvm/ADT/DenseSet.h>

#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::opt::detail {

int axis_pos(AxisType type) {
  switch (type) {
  case AxisType::Device: return -2;
  case AxisType::Weak:
  case AxisType::Loop: return -1;
  case AxisType::Global:
  case AxisType::Thread: return 0;
  case AxisType::Warp: return 1;
  case AxisType::Local:
  case AxisType::GroupReduce: return 2;
  case AxisType::Upcast: return 3;
  case AxisType::Reduce: return 4;
  case AxisType::Unroll: return 5;
  case AxisType::Placeholder: return 6;
  }
  return 6;
}

const RangeArg &range_arg(const UOp &r) { return std::get<RangeArg>(r.arg()); }
AxisType axis_type(const UOp &r) { return range_arg(r).type; }

bool range_before(const UOp &a, const UOp &b) {
  const auto &x = range_arg(a), &y = range_arg(b);
  const int px = axis_pos(x.type), py = axis_pos(y.type);
  return px != py ? px < py : x.axis < y.axis;
}

std::vector<UOp> ranges_in(const UOp &u) {
  // toposort's depth-first order, entering only subgraphs that hold a RANGE: skipping the others
  // changes neither which RANGEs are met nor their order.
  struct Frame {
    const UOp *node;
    std::size_t next;
  };
  std::vector<UOp> out;
  if (!u.subtree_ops().contains(Op::RANGE)) return out;
  llvm::DenseSet<const UOpNode *> seen;
  std::vector<Frame> stack{{&u, 0}};
  seen.insert(u.get());
  while (!stack.empty()) {
    Frame &f = stack.back();
    const auto &src = f.node->src();
    if (f.next < src.size()) {
      const UOp &s = src[f.next++];
      if (s.subtree_ops().contains(Op::RANGE) && seen.insert(s.get()).second)
        stack.push_back({&s, 0});  // f is stale now
      continue;
    }
    const UOp &n = *f.node;
    if (n.op() == Op::RANGE && std::holds_alternative<RangeArg>(n.arg())) out.push_back(n);
    stack.pop_back();
  }
  return out;
}

std::vector<UOp> open_ranges_of(const UOp &u) {
  // As kernel::open_ranges, with a LOCAL stage closing its ranges too (it stores inside them).
  const auto nodes = toposort(u);
  std::unordered_map<const UOpNode *, std::vector<const UOpNode *>> open;
  for (const auto &n : nodes) {
    std::vector<const UOpNode *> rs;
    for (const auto &s : n.src()) {
      const auto &o = open[s.get()];
      rs.insert(rs.end(), o.begin(), o.end());
    }
    if (n.op() == Op::RANGE) rs.push_back(n.get());
    std::sort(rs.begin(), rs.end());
    rs.erase(std::unique(rs.begin(), rs.end()), rs.end());
    if (n.op() == Op::REDUCE || n.op() == Op::END || n.op() == Op::STAGE)
      for (std::size_t k = 1; k < n.size(); ++k)
        rs.erase(std::remove(rs.begin(), rs.end(), n.src(k).get()), rs.end());
    open[n.get()] = std::move(rs);
  }
  std::vector<UOp> out;
  const auto &mine = open.at(u.get());
  for (const auto &n : nodes)  // topological order, not address order
    if (n.op() == Op::RANGE && std::find(mine.begin(), mine.end(), n.get()) != mine.end())
      out.push_back(n);
  return out;
}

std::int64_t extent(const UOp &r) {
  if (r.size() < 1) return -1;
  auto v = r.src(0).const_value();
  if (!v || !fits_int64(*v)) return -1;
  return static_cast<std::int64_t>(*v);
}

UOp substitute_pass(const UOp &root, const std::unordered_map<UOp, UOp> &map,
                    const std::string &name, bool replacements_final) {
  using namespace rewrite;
  // Untraced, replacements that hold no key need no second look: the plain substitution gives
  // the same graph for a fraction of the engine's cost.
  if (replacements_final && !active_trace()) return substitute(root, map);
  const PatternMatcher pm("substitute",
                          {rule("x -> its replacement", pat_any_src(ops::kAll).named("x"),
                                [&map](const Match &m) -> UOp {
                                  auto it = map.find(m["x"]);
                                  return it == map.end() ? UOp{} : it->second;
                                })});
  RewriteOptions o;
  o.name = name;
  o.pre_order = true;
  return graph_rewrite(root, pm, o);
}

void split_add(const UOp &x, std::vector<UOp> &terms) {
  if (x.op() == Op::ADD) {
    for (const auto &s : x.src()) split_add(s, terms);
  } else {
    terms.push_back(x);
  }
}

UOp index_of(const UOp &idx) {
  if (idx.op() == Op::WHERE && idx.size() == 3 && idx.src(2).is_invalid()) return idx.src(1);
  return idx;
}

UOp gate_of(const UOp &idx) {
  if (idx.op() == Op::WHERE && idx.size() == 3 && idx.src(2).is_invalid()) return idx.src(0);
  return {};
}

}  // namespace wavescope::compiler::opt::detail
