#pragma once
// Text forms of UOp graphs for the rewrite view: the parts of a node's label, the expression a
// node computes, an indented tree of a subgraph, and a line diff of two trees (the before/after
// panel, like tinygrad VIZ's diff of the replaced subtree).

#include <QString>
#include <QStringList>

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::gui {

// The op's payload for a label: "x ∈ [0, 199]", "4", "r0 · LOOP · axis 0", "→ int32"; empty when
// the node has none.
QString arg_text(const compiler::UOp &node);
// "index", "int32", "float.ptr(global)"; empty for void.
QString dtype_text(compiler::DType dtype);
// The value interval of an integer or bool node as "[0, 31]" ("-inf"/"inf" for open ends); empty
// for constants, variables (their arg shows it), non-integer and fully unbounded nodes, and bools
// that may be either value.
QString bounds_text(const compiler::UOp &node);

// The expression a node computes in the simplifier's syntax ("x//3%4*2"), for nodes small enough
// to print; memoised per instance, so one instance serves a whole graph.
class ExpressionTexts {
public:
  // Trees (shared nodes counted at each use) above this many nodes are not printed.
  static constexpr std::size_t kMaxTreeSize = 160;

  // The expression, elided in the middle to `max_chars`; empty when the node is too large.
  QString text(const compiler::UOp &node, int max_chars = 0);

private:
  std::size_t tree_size(const compiler::UOp &node);
  std::unordered_map<const compiler::UOpNode *, std::size_t> sizes_;
  std::unordered_map<const compiler::UOpNode *, QString> texts_;
};

// One line per node of a graph (each node once, shared or not): variables and other leaves first
// by name, then the rest sources before consumers: "FLOORMOD index  x//3%4  [0, 3]". Constants
// other than the root are left out: they show in the expressions. Lines name nodes by what they
// compute, so the same node reads the same in two graphs and a line diff pairs them. At most
// `max_lines` lines and a "…" line.
QStringList node_lines(const compiler::UOp &root, int max_lines = 400);

enum class DiffKind { Same, Removed, Added };
struct DiffLine {
  DiffKind kind = DiffKind::Same;
  QString text;
};

// The shortest edit script between two line lists (longest common subsequence), removals before
// additions within a change, as a unified diff orders them. (No diff library is among the
// project's dependencies; the lists are a few hundred lines at most.)
std::vector<DiffLine> diff_lines(const QStringList &before, const QStringList &after);

// The whole before/after diff of a step as unified-diff text ("-" / "+" / " " prefixes).
QString diff_text(const std::vector<DiffLine> &lines);

}  // namespace wavescope::gui
