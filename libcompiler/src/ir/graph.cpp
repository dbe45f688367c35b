#include "wavescope/compiler/ir/graph.hpp"

#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include "ir/graph_having.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"

namespace wavescope::compiler {

std::vector<UOp> toposort(const UOp &root, bool enter_calls) {
  // Depth-first, each node emitted after its sources (left to right): a frame per node on the
  // path with the next source to look at, so each edge costs one lookup in `seen` (the nodes
  // entered; in a DAG an entered node is never met again on its own path).
  struct Frame {
    const UOp *node;
    std::size_t next;
  };
  auto first_source = [enter_calls](const UOp &u) -> std::size_t {
    return !enter_calls && (u.op() == Op::FUNCTION || u.op() == Op::CALL) ? 1 : 0;
  };
  std::vector<UOp> order;
  llvm::DenseSet<const UOpNode *> seen;  // open addressing: no allocation per node
  std::vector<Frame> stack;
  stack.reserve(64);
  seen.insert(root.get());
  stack.push_back({&root, first_source(root)});
  while (!stack.empty()) {
    Frame &f = stack.back();
    const auto &src = f.node->src();
    if (f.next < src.size()) {
      const UOp &s = src[f.next++];
      if (seen.insert(s.get()).second) stack.push_back({&s, first_source(s)});  // f is stale now
      continue;
    }
    order.push_back(*f.node);
    stack.pop_back();
  }
  return order;
}

std::vector<UOp> toposort_having(const UOp &root, OpSet ops) {
  // As toposort (every source, left to right), entering only sources that hold one of `ops`.
  struct Frame {
    const UOp *node;
    std::size_t next;
  };
  std::vector<UOp> order;
  if (!root.subtree_ops().intersects(ops)) return order;
  llvm::DenseSet<const UOpNode *> seen;
  std::vector<Frame> stack;
  stack.reserve(64);
  seen.insert(root.get());
  stack.push_back({&root, 0});
  while (!stack.empty()) {
    Frame &f = stack.back();
    const auto &src = f.node->src();
    if (f.next < src.size()) {
      const UOp &s = src[f.next++];
      if (s.subtree_ops().intersects(ops) && seen.insert(s.get()).second)
        stack.push_back({&s, 0});  // f is stale now
      continue;
    }
    order.push_back(*f.node);
    stack.pop_back();
  }
  return order;
}

UOp substitute(const UOp &root, const std::unordered_map<UOp, UOp> &replacements) {
  if (replacements.empty()) return root;
  // A subgraph without any replaced node's op holds no replaced node: it stays as it is.
  OpSet replaced_ops;
  for (const auto &[from, to] : replacements) replaced_ops.add(from.op());
  llvm::DenseMap<const UOpNode *, UOp> result;  // open addressing: no allocation per node
  auto done = [&](const UOp &u) -> const UOp * {
    if (!u.subtree_ops().intersects(replaced_ops)) return &u;
    auto it = result.find(u.get());
    return it == result.end() ? nullptr : &it->second;
  };
  std::vector<std::pair<const UOp *, bool>> stack{{&root, false}};
  std::vector<UOp> src;
  while (!stack.empty()) {
    auto [node, expanded] = stack.back();
    stack.pop_back();
    if (done(*node)) continue;
    if (!expanded) {
      if (auto it = replacements.find(*node); it != replacements.end()) {
        result.try_emplace(node->get(), it->second);
        continue;
      }
      stack.emplace_back(node, true);
      for (std::size_t i = node->size(); i-- > 0;)
        if (!done(node->src(i))) stack.emplace_back(&node->src(i), false);
      continue;
    }
    bool changed = false;
    for (const auto &s : node->src()) changed |= done(s)->get() != s.get();
    if (!changed) {
      result.try_emplace(node->get(), *node);
      continue;
    }
    src.clear();
    for (const auto &s : node->src()) src.push_back(*done(s));
    UOp rebuilt = node->with_src(std::move(src));
    src = {};
    result.try_emplace(node->get(), std::move(rebuilt));
  }
  return *done(root);
}

bool in_graph(const UOp &root, const UOp &node) {
  if (root == node) return true;
  if (!root || !node) return false;
  // A graph holding `node` holds every op below it: other subgraphs need no visit.
  const OpSet needed = node.subtree_ops();
  if (!needed.is_subset_of(root.subtree_ops())) return false;
  llvm::DenseSet<const UOpNode *> seen;
  std::vector<const UOp *> stack;
  stack.push_back(&root);
  while (!stack.empty()) {
    const UOp *u = stack.back();
    stack.pop_back();
    for (const auto &s : u->src()) {
      if (s == node) return true;
      if (needed.is_subset_of(s.subtree_ops()) && seen.insert(s.get()).second) stack.push_back(&s);
    }
  }
  return false;
}

bool graph_has_op(const UOp &root, OpSet ops) { return root.subtree_ops().intersects(ops); }

int structural_compare(const UOp &a, const UOp &b) {
  if (a == b) return 0;
  if (a.op() != b.op()) return a.op() < b.op() ? -1 : 1;
  if (int c = compare_args(a.arg(), b.arg())) return c;
  if (int c = compare(a.dtype(), b.dtype())) return c;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (int c = structural_compare(a.src(i), b.src(i))) return c;
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  if (int c = compare_args(a.tag(), b.tag())) return c;
  return a.id() < b.id() ? -1 : 1;  // unreachable for interned nodes; keeps the order total
}

ContentKey content_key(const UOp &root) {
  std::unordered_map<const UOpNode *, ContentKey> keys;
  for (const auto &u : toposort(root)) {
    Sha256 hash;
    hash.update(fmt::format("{}|{}|{}|{}", to_string(u.op()), to_string(u.dtype()),
                            to_string(u.arg()), to_string(u.tag())));
    for (const auto &s : u.src()) hash.update(keys.at(s.get()));
    keys.emplace(u.get(), hash.finish());
  }
  return keys.at(root.get());
}

std::string to_hex(const ContentKey &key) { return wavescope::to_hex(key); }

std::string to_text(const UOp &root) {
  const auto order = toposort(root);
  std::unordered_map<const UOpNode *, std::size_t> number;
  std::string text;
  for (const auto &u : order) {
    const std::size_t n = number.size();
    number.emplace(u.get(), n);
    std::string line = fmt::format("%{} = {} {}", n, to_string(u.op()), to_string(u.dtype()));
    if (!u.src().empty()) {
      line += " (";
      for (std::size_t i = 0; i < u.size(); ++i)
        line += fmt::format("{}%{}", i ? ", " : "", number.at(u.src(i).get()));
      line += ")";
    }
    if (!is_none(u.arg())) line += " " + to_string(u.arg());
    if (!is_none(u.tag())) line += " tag=" + to_string(u.tag());
    text += line + "\n";
  }
  return text;
}

}  // namespace wavescope::compiler
