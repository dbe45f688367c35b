#pragma once
// The graph the rewrite view draws for one record of a pass: which nodes show, their labels and
// marks, and the edges between them. Built from a RewriteRecord without widgets, so it can be
// built off the GUI thread and tested.
//
// Nodes are labelled as tinygrad VIZ labels them (op, dtype, arg, folded constant sources) plus
// what index math needs: the node's value interval and the expression it computes. Constants fold
// into their consumers' labels unless they are the root or new in this step. A graph larger than
// `max_nodes` shows the neighbourhood of the change (or of the root) and counts what it hides.

#include <QString>
#include <QStringList>

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "app/rewrite_trace_document.hpp"

namespace wavescope::gui {

enum class RewriteNodeMark {
  Unchanged,
  Replacement,  // the node the rule returned (it may have existed before)
  Created,      // new in this step, reachable from the rule's result
  Rebuilt,      // new in this step because one of its sources was replaced
};

struct RewriteGraphNode {
  compiler::UOp uop;
  QString title;        // the op
  QString subtitle;     // dtype and value interval, on the title's line: "index  [0, 3]"
  QStringList details;  // arg, folded constants
  QString expression;   // what the node computes ("x//3%4"), elided; empty for leaves
  RewriteNodeMark mark = RewriteNodeMark::Unchanged;
  bool root = false;
  int hidden_sources = 0;  // sources left out of a collapsed graph
};

struct RewriteGraphEdge {
  std::size_t from = 0;  // source node (index into nodes)
  std::size_t to = 0;    // consumer node
  int port = 0;          // the first source slot the edge feeds
  int count = 1;         // how many slots of the consumer the source feeds
};

struct RewriteGraphOptions {
  bool fold_constants = true;
  std::size_t max_nodes = 300;  // 0: never collapse
  bool operator==(const RewriteGraphOptions &) const = default;
};

struct RewriteGraph {
  std::vector<RewriteGraphNode> nodes;  // sources before consumers; the root last
  std::vector<RewriteGraphEdge> edges;
  std::size_t graph_nodes = 0;       // nodes in the whole graph
  std::size_t folded_constants = 0;  // constant nodes shown inside their consumers
  bool collapsed = false;            // some nodes were left out (max_nodes)
  QString error;                     // the record could not be built: why

  // The index of the node drawing `node`, or -1 when it is not drawn.
  int index_of(const compiler::UOpNode *node) const;
  std::unordered_map<const compiler::UOpNode *, std::size_t> index;
};

RewriteGraph build_rewrite_graph(const RewriteRecord &record, const RewriteGraphOptions &options);

// The graph of one record of a document; a record that cannot be replayed gives a graph holding
// only the error.
RewriteGraph build_rewrite_graph(const RewriteTraceDocument &document, int group, int pass,
                                 int record, const RewriteGraphOptions &options);

}  // namespace wavescope::gui
