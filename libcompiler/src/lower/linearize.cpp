// The §7 linearizer (linearize.hpp).

#include "wavescope/compiler/lower/linearize.hpp"

#include <algorithm>
#include <queue>
#include <string>
#include <unordered_map>

#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::lower {
namespace {

struct Key {
  Int run_count = 1;
  int priority = 0;
  std::int64_t extra = 0;
};

bool less(const Key &a, const Key &b) {
  if (a.run_count != b.run_count) return a.run_count < b.run_count;
  if (a.priority != b.priority) return a.priority < b.priority;
  return a.extra < b.extra;
}

int priority_of(const UOp &u, std::int64_t &extra) {
  switch (u.op()) {
  case Op::PARAM:
    if (auto p = std::get_if<ParamArg>(&u.arg())) extra = p->slot;
    return -20;
  case Op::BUFFER: {
    auto p = std::get_if<ParamArg>(&u.arg());
    return p && p->addrspace == AddrSpace::Local ? -17 : -18;
  }
  case Op::LOAD: return -1;
  case Op::STORE: return 1;
  case Op::RANGE: return 5;
  case Op::END: return -5;
  default: return 0;
  }
}

// The RANGEs still open at each node (an END closes the ranges it names): for the node at
// position i of a topological order, pool[at[i], at[i + 1]), sorted by address. One pool for all
// nodes (no allocation per node); a node without a RANGE below has none.
struct OpenRanges {
  std::vector<const UOpNode *> pool;
  std::vector<std::size_t> at;
};

OpenRanges open_ranges(const std::vector<UOp> &nodes,
                       const llvm::DenseMap<const UOpNode *, std::size_t> &position) {
  OpenRanges open;
  open.at.reserve(nodes.size() + 1);
  open.at.push_back(0);
  std::vector<const UOpNode *> rs;
  for (const auto &u : nodes) {
    if (u.subtree_ops().contains(Op::RANGE)) {
      rs.clear();
      for (const auto &s : u.src()) {
        const std::size_t j = position.find(s.get())->second;
        rs.insert(rs.end(), open.pool.begin() + static_cast<std::ptrdiff_t>(open.at[j]),
                  open.pool.begin() + static_cast<std::ptrdiff_t>(open.at[j + 1]));
      }
      if (u.op() == Op::RANGE) rs.push_back(u.get());
      std::sort(rs.begin(), rs.end());
      rs.erase(std::unique(rs.begin(), rs.end()), rs.end());
      if (u.op() == Op::END || u.op() == Op::REDUCE)
        for (std::size_t k = 1; k < u.size(); ++k)
          rs.erase(std::remove(rs.begin(), rs.end(), u.src(k).get()), rs.end());
      open.pool.insert(open.pool.end(), rs.begin(), rs.end());
    }
    open.at.push_back(open.pool.size());
  }
  return open;
}

}  // namespace

std::vector<UOp> linearize(const UOp &sink) {
  if (!sink || sink.op() != Op::SINK)
    throw Error(ErrorKind::BadInput, "linearize: the kernel graph must be a SINK");
  const std::vector<UOp> nodes = toposort(sink);
  llvm::DenseMap<const UOpNode *, std::size_t> consumers, position;
  consumers.reserve(nodes.size());
  position.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) position.try_emplace(nodes[i].get(), i);
  const auto open = open_ranges(nodes, position);

  std::vector<Key> keys(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const UOp &u = nodes[i];
    for (const auto &s : u.src()) ++consumers[s.get()];
    Key k;
    for (std::size_t j = open.at[i]; j < open.at[i + 1]; ++j) {
      const UOpNode *r = open.pool[j];
      const Int extent = saturating_add(r->vmax, 1);
      k.run_count = saturating_mul(k.run_count, extent < 1 ? Int(1) : extent);
    }
    k.priority = priority_of(u, k.extra);
    keys[i] = k;
  }

  // The ideal order: by key, graph order on ties.
  std::vector<std::size_t> order(nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
  std::vector<std::size_t> ideal(nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) ideal[order[i]] = i;

  // Reverse topological order from the SINK, latest ideal position first.
  std::priority_queue<std::pair<std::size_t, std::size_t>> heap;  // (ideal, node index)
  const std::size_t root = position.find(sink.get())->second;
  heap.emplace(ideal[root], root);
  std::vector<UOp> reversed;
  reversed.reserve(nodes.size());
  while (!heap.empty()) {
    const std::size_t i = heap.top().second;
    heap.pop();
    reversed.push_back(nodes[i]);
    for (const auto &s : nodes[i].src())
      if (--consumers[s.get()] == 0) {
        const std::size_t j = position.find(s.get())->second;
        heap.emplace(ideal[j], j);
      }
  }
  std::reverse(reversed.begin(), reversed.end());

  // Gated stores become IF / STORE / ENDIF; later nodes refer to the rebuilt ones.
  std::vector<UOp> out;
  out.reserve(reversed.size());
  std::unordered_map<const UOpNode *, UOp> replaced;
  for (const UOp &u0 : reversed) {
    UOp u = u0;
    if (!replaced.empty()) {
      std::vector<UOp> src = u.src();
      bool changed = false;
      for (auto &s : src)
        if (auto it = replaced.find(s.get()); it != replaced.end()) {
          s = it->second;
          changed = true;
        }
      if (changed) u = UOp::make(u.op(), u.dtype(), std::move(src), u.arg(), u.tag());
    }
    if (u.op() == Op::STORE && u.size() == 3 && u.src(2).dtype() == dtypes::bool_) {
      const UOp ungated = UOp::make(Op::STORE, dtypes::void_, {u.src(0), u.src(1)}, u.arg());
      const UOp open_if = UOp::make(Op::IF, dtypes::void_, {u.src(2), u.src(0)});
      out.push_back(open_if);
      out.push_back(ungated);
      out.push_back(UOp::make(Op::ENDIF, dtypes::void_, {open_if}));
      u = ungated;
    } else {
      out.push_back(u);
    }
    if (!(u == u0)) replaced.emplace(u0.get(), u);
  }
  return out;
}

std::string linear_to_text(const std::vector<UOp> &list) {
  std::unordered_map<const UOpNode *, std::size_t> at;
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const UOp &u = list[i];
    at.emplace(u.get(), i);
    std::string src;
    for (const auto &s : u.src()) {
      if (!src.empty()) src += ", ";
      auto it = at.find(s.get());
      src += it == at.end() ? std::string("?") : std::to_string(it->second);
    }
    std::string arg = is_none(u.arg()) ? std::string() : " " + to_string(u.arg());
    out += fmt::format("{:4} {:<12} {:<18} ({}){}\n", i, to_string(u.op()), to_string(u.dtype()),
                       src, arg);
  }
  return out;
}

}  // namespace wavescope::compiler::lower
