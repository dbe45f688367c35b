#pragma once
// What `wavectl rewrite-trace info` and `show` report, and their printers: a trace's summary
// (groups, rewrites, rules applied) and one rewrite replayed step by step, as JSON (one object per
// line) and text.

#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::rewrite {

// Per group its rewrites (name, depth, match count, call site, mode) and how often each rule
// applied; the text form adds the totals and each rule's time. `file` names the trace in the text.
struct TraceSummaryReport {
  const RewriteTrace &trace;
  std::string file;
};
std::string to_json(const TraceSummaryReport &report);
std::string to_text(const TraceSummaryReport &report);

// One rewrite replayed: the graph after each step, and whether the last one is the recorded
// output (`reproduces_output`; false too when the rewrite recorded no output).
struct RewriteReplay {
  const RewriteTrace &trace;
  const TraceRewrite &rewrite;
  std::vector<UOp> graphs;  // the input, then the graph after each step
  bool reproduces_output = false;
};
RewriteReplay replay_rewrite(const RewriteTrace &trace, const TraceRewrite &rewrite);
std::string to_json(const RewriteReplay &replay);
std::string to_text(const RewriteReplay &replay);

}  // namespace wavescope::compiler::rewrite
