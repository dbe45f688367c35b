#include "models/rewrite_graph.hpp"

#include <deque>
#include <map>
#include <unordered_set>

#include "models/rewrite_text.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::gui {

using compiler::Op;
using compiler::UOp;
using compiler::UOpNode;

namespace {

constexpr int kExpressionChars = 34;

RewriteNodeMark mark_of(const RewriteRecord &record, const UOpNode *node) {
  if (record.after && record.after.get() == node) return RewriteNodeMark::Replacement;
  if (record.created.count(node)) return RewriteNodeMark::Created;
  if (record.rebuilt.count(node)) return RewriteNodeMark::Rebuilt;
  return RewriteNodeMark::Unchanged;
}

// The nodes a collapsed graph keeps: breadth-first from the seeds over source and consumer links,
// nearest first, until `limit`.
std::unordered_set<const UOpNode *> neighbourhood(const std::vector<UOp> &candidates,
                                                  const std::vector<const UOpNode *> &seeds,
                                                  std::size_t limit) {
  std::unordered_set<const UOpNode *> is_candidate;
  for (const UOp &u : candidates) is_candidate.insert(u.get());
  std::unordered_map<const UOpNode *, std::vector<const UOpNode *>> links;
  for (const UOp &u : candidates)
    for (const UOp &s : u.src())
      if (is_candidate.count(s.get())) {
        links[u.get()].push_back(s.get());
        links[s.get()].push_back(u.get());
      }
  std::unordered_set<const UOpNode *> kept;
  std::deque<const UOpNode *> queue;
  for (const UOpNode *s : seeds)
    if (is_candidate.count(s) && kept.size() < limit && kept.insert(s).second) queue.push_back(s);
  while (!queue.empty() && kept.size() < limit) {
    const UOpNode *n = queue.front();
    queue.pop_front();
    for (const UOpNode *next : links[n]) {
      if (kept.size() >= limit) break;
      if (kept.insert(next).second) queue.push_back(next);
    }
  }
  return kept;
}

}  // namespace

int RewriteGraph::index_of(const UOpNode *node) const {
  auto it = index.find(node);
  return it == index.end() ? -1 : static_cast<int>(it->second);
}

RewriteGraph build_rewrite_graph(const RewriteRecord &record, const RewriteGraphOptions &options) {
  RewriteGraph graph;
  if (!record.graph) return graph;
  const std::vector<UOp> all = compiler::toposort(record.graph);
  graph.graph_nodes = all.size();

  // Constants fold into their consumers, unless they are the root or new in this step.
  std::unordered_set<const UOpNode *> folded;
  std::vector<UOp> candidates;
  for (const UOp &u : all) {
    const bool fold = options.fold_constants && u.op() == Op::CONST && !(u == record.graph) &&
                      mark_of(record, u.get()) == RewriteNodeMark::Unchanged;
    if (fold)
      folded.insert(u.get());
    else
      candidates.push_back(u);
  }
  graph.folded_constants = folded.size();

  std::unordered_set<const UOpNode *> shown;
  if (options.max_nodes > 0 && candidates.size() > options.max_nodes) {
    // Around the rule's result (its new nodes are its neighbours), and the root.
    std::vector<const UOpNode *> seeds;
    if (record.after) seeds.push_back(record.after.get());
    seeds.push_back(record.graph.get());
    shown = neighbourhood(candidates, seeds, options.max_nodes);
    graph.collapsed = true;
  } else {
    for (const UOp &u : candidates) shown.insert(u.get());
  }

  ExpressionTexts expressions;
  for (const UOp &u : candidates) {
    if (!shown.count(u.get())) continue;
    RewriteGraphNode node;
    node.uop = u;
    node.root = u == record.graph;
    node.mark = mark_of(record, u.get());
    node.title = QString::fromStdString(std::string(to_string(u.op())));
    node.subtitle = dtype_text(u.dtype());
    if (const QString bounds = bounds_text(u); !bounds.isEmpty())
      node.subtitle += (node.subtitle.isEmpty() ? QString() : QStringLiteral("  ")) + bounds;
    if (const QString arg = arg_text(u); !arg.isEmpty()) node.details << arg;
    for (std::size_t i = 0; i < u.size(); ++i) {
      const UOp &s = u.src(i);
      if (folded.count(s.get()))
        node.details << QStringLiteral("src %1 = %2").arg(i).arg(arg_text(s));
      else if (!shown.count(s.get()))
        ++node.hidden_sources;
    }
    if (!u.src().empty()) node.expression = expressions.text(u, kExpressionChars);
    graph.index.emplace(u.get(), graph.nodes.size());
    graph.nodes.push_back(std::move(node));
  }

  for (std::size_t to = 0; to < graph.nodes.size(); ++to) {
    const UOp &u = graph.nodes[to].uop;
    // One edge per distinct source, in slot order; a source feeding several slots shows the
    // count.
    std::map<std::size_t, std::size_t> edge_of_source;
    for (std::size_t i = 0; i < u.size(); ++i) {
      const int from = graph.index_of(u.src(i).get());
      if (from < 0) continue;
      auto [it, inserted] =
          edge_of_source.try_emplace(static_cast<std::size_t>(from), graph.edges.size());
      if (inserted)
        graph.edges.push_back({static_cast<std::size_t>(from), to, static_cast<int>(i), 1});
      else
        ++graph.edges[it->second].count;
    }
  }
  return graph;
}

RewriteGraph build_rewrite_graph(const RewriteTraceDocument &document, int group, int pass,
                                 int record, const RewriteGraphOptions &options) {
  try {
    return build_rewrite_graph(document.record(group, pass, record), options);
  } catch (const std::exception &e) {
    RewriteGraph graph;
    graph.error = QString::fromStdString(e.what());
    return graph;
  }
}

}  // namespace wavescope::gui
