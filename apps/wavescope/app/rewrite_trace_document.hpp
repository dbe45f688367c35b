#pragma once
// An opened rewrite trace (docs/rewrite-trace.md): libcompiler's RewriteTrace, its passes in trace
// order, and what the rewrite view needs per record of a pass. A pass's graphs are replayed on
// first use (from any thread) and kept.
//
// Terms: a *group* is a kernel or context, a *pass* one graph_rewrite call in it (the library's
// TraceRewrite), a *step* one rule application. Record 0 of a pass is its input graph; record k
// (1..steps) is the graph after its first k steps.

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "app/document.hpp"
#include "wavescope/base/progress.hpp"
#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/program_views.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::gui {

struct RewritePassRef {
  int group = -1;
  int pass = -1;  // index into the group's rewrites
  bool operator==(const RewritePassRef &) const = default;
};

// One record of a pass, resolved: its graph, the graph before it, and the step that led to it.
struct RewriteRecord {
  int group = -1;
  int pass = -1;
  int record = 0;  // 0: the input; k: after step k
  const compiler::rewrite::TraceRewrite *rewrite = nullptr;
  const compiler::rewrite::TraceStep *step = nullptr;  // step k; null for record 0
  compiler::UOp graph;                                 // the graph of this record
  compiler::UOp previous;                              // record k-1's graph; null for record 0
  compiler::UOp before;                                // the node the rule matched
  compiler::UOp after;                                 // what the rule returned
  // Nodes of `graph` the step created: reachable from `after` and not in `previous`.
  std::unordered_set<const compiler::UOpNode *> created;
  // Other nodes of `graph` that are new: ancestors rebuilt because a source was replaced.
  std::unordered_set<const compiler::UOpNode *> rebuilt;
};

class RewriteTraceDocument final : public Document {
public:
  explicit RewriteTraceDocument(compiler::rewrite::RewriteTrace trace);
  DocumentKind kind() const override { return DocumentKind::RewriteTrace; }

  const compiler::rewrite::RewriteTrace &trace() const { return trace_; }
  int group_count() const { return static_cast<int>(trace_.groups().size()); }
  const compiler::rewrite::TraceGroupRecord *group(int group) const;
  int pass_count(int group) const;
  const compiler::rewrite::TraceRewrite *pass(int group, int pass) const;
  // Every pass in trace order (group by group, passes in the order they started).
  const std::vector<RewritePassRef> &passes() const { return passes_; }
  // The position of a pass in passes(), or -1.
  int pass_position(RewritePassRef pass) const;
  std::size_t step_total() const { return step_total_; }

  // The graphs of a pass: [0] its input, [k] after its first k steps. Replayed once, then cached;
  // safe to call from several threads. Throws wavescope::Error when the pass cannot be replayed.
  const std::vector<compiler::UOp> &graphs(int group, int pass) const;
  // Record `record` (0..steps) of a pass. Throws wavescope::Error for a position outside the
  // trace or a pass that cannot be replayed.
  RewriteRecord record(int group, int pass, int record) const;

  // The program a pass rendered (VIZ's "View Source" after a kernel's linearize/render), if any.
  std::optional<std::string> rendered_source(int group, int pass) const;
  // What a view step after a linearize/render shows (the linearized list, the source, the
  // disassembly), or nullopt when the pass's PROGRAM never held that part.
  std::optional<std::string> program_page(int group, int pass,
                                          compiler::rewrite::ProgramView view) const;

  // The trace id under which the node table holds `node`, if it does.
  std::optional<std::uint64_t> trace_id(const compiler::UOp &node) const;

private:
  struct Replay {
    std::once_flag once;
    std::vector<compiler::UOp> graphs;
    std::string error;
  };

  compiler::rewrite::RewriteTrace trace_;
  std::vector<RewritePassRef> passes_;
  std::size_t step_total_ = 0;
  mutable std::mutex mutex_;
  mutable std::map<std::pair<int, int>, std::unique_ptr<Replay>> replays_;
  mutable std::once_flag ids_once_;
  mutable std::unordered_map<const compiler::UOpNode *, std::uint64_t> ids_;
  mutable std::vector<compiler::UOp> id_nodes_;  // keeps the nodes of ids_ alive
};

// Display names without ANSI color escapes (tinygrad colors kernel names): the library's.
using compiler::rewrite::strip_ansi;

// Loads a rewrite trace file: ours (JSON) or tinygrad's rewrites.pkl, told by content. Throws
// wavescope::Error naming the file and the JSON path or byte offset of the problem (malformed
// JSON, wrong version, a node id missing from the table, a truncated pickle, ...).
std::shared_ptr<RewriteTraceDocument> load_rewrite_trace(const QString &path);

// Simplifies every case of a symbolic corpus file (.jsonl, as `wavectl simplify --cases`) with
// the rewrite trace on, one group per case, so each case's rewrites can be stepped through. Cases
// that cannot be simplified are counted in the title (a rule that threw stays in the trace as an
// error node). Throws wavescope::Error naming the file and line of a malformed case.
std::shared_ptr<RewriteTraceDocument> load_symbolic_cases(const QString &path,
                                                          const ProgressSink &progress = {});

}  // namespace wavescope::gui
