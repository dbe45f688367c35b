// Stages 25-27: implicit barriers, control flow, parameter numbering (passes.hpp).

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include "lower_util.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

bool is_local_store(const UOp &x) {
  return x.op() == Op::STORE && x.size() >= 1 &&
         detail::addrspace_of(x.src(0).size() ? x.src(0).src(0) : UOp{}) == AddrSpace::Local;
}

// Nodes reachable from `roots`, not descending into BARRIERs (they are included).
std::vector<UOp> slice_until_barrier(const std::vector<UOp> &roots) {
  std::vector<UOp> out, stack(roots.begin(), roots.end());
  std::unordered_set<const UOpNode *> seen;
  while (!stack.empty()) {
    UOp u = stack.back();
    stack.pop_back();
    if (!seen.insert(u.get()).second) continue;
    out.push_back(u);
    if (u.op() == Op::BARRIER) continue;
    for (const auto &s : u.src()) stack.push_back(s);
  }
  return out;
}

// A LOCAL buffer read after stores that reach it through AFTER: a barrier between.
UOp raw_barrier(const UOp &after) {
  if (after.size() < 2 || detail::addrspace_of(after) != AddrSpace::Local) return {};
  if (after.src(0).op() == Op::AFTER) return {};  // the innermost AFTER decides
  const std::vector<UOp> deps(after.src().begin() + 1, after.src().end());
  bool stores = false;
  for (const UOp &x : slice_until_barrier(deps)) stores |= is_local_store(x);
  if (!stores) return {};
  return UOp::make(Op::AFTER, after.dtype(),
                   {after.src(0), UOp::make(Op::BARRIER, dtypes::void_, deps)});
}

// True when some node reachable from root stores to a LOCAL buffer.
bool has_local_store(const UOp &root) {
  if (!root.subtree_ops().contains(Op::STORE)) return false;
  llvm::DenseSet<const UOpNode *> seen;
  std::vector<const UOp *> stack{&root};
  seen.insert(root.get());
  while (!stack.empty()) {
    const UOp &u = *stack.back();
    stack.pop_back();
    if (is_local_store(u)) return true;
    for (const auto &s : u.src())
      if (s.subtree_ops().contains(Op::STORE) && seen.insert(s.get()).second) stack.push_back(&s);
  }
  return false;
}

// The RANGEs open at each node reachable from root.
std::unordered_map<const UOpNode *, std::set<const UOpNode *>> ranges_in(const UOp &root) {
  std::unordered_map<const UOpNode *, std::set<const UOpNode *>> open;
  for (const UOp &u : toposort(root)) {
    std::set<const UOpNode *> rs;
    for (const auto &s : u.src()) rs.insert(open[s.get()].begin(), open[s.get()].end());
    if (u.op() == Op::RANGE) rs.insert(u.get());
    if (u.op() == Op::END)
      for (std::size_t k = 1; k < u.size(); ++k) rs.erase(u.src(k).get());
    open[u.get()] = std::move(rs);
  }
  return open;
}

// A loop that stores to a LOCAL buffer and loads it again: a barrier at the end of its body.
UOp war_barrier(const UOp &end) {
  if (end.size() < 2 || end.src(0).op() == Op::BARRIER) return {};
  std::vector<const UOpNode *> loops;
  for (std::size_t k = 1; k < end.size(); ++k) {
    const UOp &r = end.src(k);
    auto ra = std::get_if<RangeArg>(&r.arg());
    if (r.op() == Op::RANGE && ra && r.vmax() > 0 &&
        (ra->type == AxisType::Reduce || ra->type == AxisType::Loop || ra->type == AxisType::Weak))
      loops.push_back(r.get());
  }
  if (loops.empty()) return {};
  // Most bodies store to no LOCAL buffer: a walk that stops at the first such store decides
  // that without ordering the body or the open ranges of each node.
  if (!has_local_store(end.src(0))) return {};
  const auto body = toposort(end.src(0));
  const auto open = ranges_in(end.src(0));
  std::unordered_set<const UOpNode *> stored;
  for (const UOp &x : body) {
    if (!is_local_store(x)) continue;
    const auto &rs = open.at(x.get());
    for (auto *r : loops)
      if (rs.count(r)) stored.insert(detail::buffer_of(x.src(0).src(0)).get());
  }
  if (stored.empty()) return {};
  std::vector<UOp> src{end.src(0)};
  for (const UOp &x : body)
    if (x.op() == Op::LOAD && x.src(0).size() &&
        stored.count(detail::buffer_of(x.src(0).src(0)).get()))
      src.push_back(x);
  if (src.size() == 1) return {};
  std::vector<UOp> out{UOp::make(Op::BARRIER, dtypes::void_, std::move(src))};
  out.insert(out.end(), end.src().begin() + 1, end.src().end());
  return UOp::make(Op::END, dtypes::void_, std::move(out));
}

const PatternMatcher &barrier_rules() {
  static const PatternMatcher pm(
      "add implicit barriers",
      {
          rule("LOCAL read after LOCAL stores (AFTER) -> AFTER(buf, BARRIER(stores))",
               pat_any_src(Op::AFTER).named("a"),
               [](const Match &m) { return raw_barrier(m["a"]); }),
          rule("loop storing and loading a LOCAL buffer -> BARRIER at the end of its body",
               pat_any_src(Op::END).named("e"), [](const Match &m) { return war_barrier(m["e"]); }),
      });
  return pm;
}

// The ordering edges of spec §5.2 stage 26: for each RANGE, the END (or parent RANGE) it must
// follow.
using Edges = std::unordered_map<const UOpNode *, UOp>;

Edges control_flow_edges(const UOp &sink) {
  // The RANGEs and ENDs below each node, in the order first met: a few per node, kept as a slice
  // of one shared pool (no allocation per node) and searched linearly.
  struct Slice {
    std::uint32_t begin = 0, size = 0;
  };
  std::vector<const UOpNode *> pool;
  llvm::DenseMap<const UOpNode *, Slice> deps;
  auto deps_of = [&](const UOpNode *x) -> std::pair<const UOpNode *const *, std::size_t> {
    auto it = deps.find(x);
    if (it == deps.end()) return {nullptr, 0};
    return {pool.data() + it->second.begin, it->second.size};
  };
  auto depends = [&](const UOpNode *x, const UOpNode *y) {
    auto [b, n] = deps_of(x);
    return std::find(b, b + n, y) != b + n;
  };
  const std::vector<UOp> order = toposort(sink);
  // The handles of the ENDs (the nodes a loop may have to follow), into `order`.
  llvm::DenseMap<const UOpNode *, const UOp *> nodes;
  std::vector<const UOpNode *> nested_order;
  llvm::DenseMap<const UOpNode *, const UOpNode *> nesting;
  std::vector<const UOpNode *> d;
  for (const UOp &u : order) {
    if (u.op() == Op::END) nodes.try_emplace(u.get(), &u);
    // Without a RANGE or END below, a node depends on none (and nests nothing).
    if (!u.subtree_ops().intersects({Op::RANGE, Op::END})) continue;
    d.clear();
    for (const auto &s : u.src()) {
      auto [b, n] = deps_of(s.get());
      for (std::size_t i = 0; i < n; ++i)
        if (std::find(d.begin(), d.end(), b[i]) == d.end()) d.push_back(b[i]);
    }
    if (u.op() == Op::END || u.op() == Op::SINK)
      for (auto *x : d)
        if (x->op == Op::END && !nesting.count(x) &&
            (u.op() == Op::SINK || (u.size() > 1 && depends(x, u.src(1).get())))) {
          nesting.try_emplace(x, u.get());
          nested_order.push_back(x);
        }
    if (u.op() == Op::RANGE || u.op() == Op::END)
      if (std::find(d.begin(), d.end(), u.get()) == d.end()) d.push_back(u.get());
    const Slice slice{static_cast<std::uint32_t>(pool.size()),
                      static_cast<std::uint32_t>(d.size())};
    pool.insert(pool.end(), d.begin(), d.end());
    deps[u.get()] = slice;
  }
  std::vector<const UOpNode *> parents;
  std::unordered_map<const UOpNode *, std::vector<const UOpNode *>> siblings;
  for (auto *x : nested_order) {
    auto *p = nesting.lookup(x);
    if (!siblings.count(p)) parents.push_back(p);
    siblings[p].push_back(x);
  }
  Edges edges;
  for (auto *p : parents) {
    auto v = siblings[p];
    auto count = [&](const UOpNode *x) {
      std::size_t n = 0;
      for (auto *y : v) n += depends(x, y) ? 1 : 0;
      return n;
    };
    std::stable_sort(v.begin(), v.end(),
                     [&](const UOpNode *a, const UOpNode *b) { return count(a) < count(b); });
    std::vector<const UOp *> before;  // the node each of v must follow
    before.push_back(p->op == Op::SINK ? nullptr : &p->src[1]);
    for (std::size_t i = 0; i + 1 < v.size(); ++i) before.push_back(nodes.lookup(v[i]));
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!before[i]) continue;
      const UOpNode *end = v[i];
      if (end->src.size() < 2 || end->src[1].op() != Op::RANGE) continue;
      const UOp &range = end->src[1];
      // a loop cannot follow what depends on it (tinygrad asserts here; we keep the order the
      // graph already has)
      if (before[i]->get() == range.get() || in_graph(*before[i], range)) continue;
      edges.emplace(range.get(), *before[i]);
    }
  }
  return edges;
}

const PatternMatcher &control_flow_rules() {
  static const PatternMatcher pm(
      "add control flow",
      {
          rule("RANGE -> RANGE after the loop it must follow", pat_any_src(Op::RANGE).named("r"),
               [](const Match &m) -> UOp {
                 const UOp &r = m["r"];
                 auto &edges = m.context<Edges>();
                 auto it = edges.find(r.get());
                 if (it == edges.end()) return {};
                 for (const auto &s : r.src())
                   if (s == it->second) return {};
                 std::vector<UOp> src = r.src();
                 src.push_back(it->second);
                 return UOp::make(Op::RANGE, r.dtype(), std::move(src), r.arg(), r.tag());
               }),
      });
  return pm;
}

struct SlotCounter {
  std::int64_t next = 0;
};

const PatternMatcher &number_params_rules() {
  static const PatternMatcher pm(
      "number params",
      {
          rule("a variable without a slot -> the next slot", pat_any_src(Op::PARAM).named("p"),
               [](const Match &m) -> UOp {
                 const UOp &p = m["p"];
                 auto a = std::get<ParamArg>(p.arg());
                 if (a.slot != -1) return {};
                 a.slot = m.context<SlotCounter>().next++;
                 return p.with_arg(std::move(a));
               }),
      });
  return pm;
}

}  // namespace

UOp add_implicit_barriers(const UOp &sink) {
  return graph_rewrite(sink, barrier_rules(), detail::pass("add implicit barriers"));
}

UOp add_control_flow(const UOp &sink) {
  Edges edges = control_flow_edges(sink);
  // No loop to order: the pass has nothing to do (it still runs, and shows, when traced).
  if (edges.empty() && !rewrite::active_trace()) return sink;
  auto options = detail::pass("add control flow");
  options.pre_order = true;
  options.context = edges;
  return graph_rewrite(sink, control_flow_rules(), options);
}

UOp number_params(const UOp &sink) {
  SlotCounter counter;
  bool unnumbered = false;
  // Every PARAM, by a walk that enters only the subgraphs holding one (the order does not matter).
  llvm::DenseSet<const UOpNode *> seen;
  std::vector<const UOp *> stack;
  if (sink.subtree_ops().contains(Op::PARAM)) {
    stack.push_back(&sink);
    seen.insert(sink.get());
  }
  while (!stack.empty()) {
    const UOp &u = *stack.back();
    stack.pop_back();
    if (u.op() == Op::PARAM)
      if (auto p = std::get_if<ParamArg>(&u.arg())) {
        if (p->slot >= counter.next) counter.next = p->slot + 1;
        unnumbered |= p->slot == -1;
      }
    for (const auto &s : u.src())
      if (s.subtree_ops().contains(Op::PARAM) && seen.insert(s.get()).second) stack.push_back(&s);
  }
  // Every variable has its slot: nothing to do (the pass still runs, and shows, when traced).
  if (!unnumbered && !rewrite::active_trace()) return sink;
  auto options = detail::pass("number params");
  options.walk = true;
  options.context = counter;
  return graph_rewrite(sink, number_params_rules(), options);
}

}  // namespace wavescope::compiler::lower
