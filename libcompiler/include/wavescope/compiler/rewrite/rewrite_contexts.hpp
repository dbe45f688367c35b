#pragma once
// A rewrite trace as tinygrad VIZ lists it (spec viz.md a.3): per context (group) its steps, one
// per rewrite, plus the view steps VIZ inserts after a kernel's "linearize/render" rewrite
// ("View UOp List", "View Source", "View Disassembly", at its depth, without a match count or a
// call site). The printers behind `wavectl rewrite-trace contexts`.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::rewrite {

struct ContextStep {
  enum class Kind { Rewrite, UOpList, Source, Disassembly };
  Kind kind = Kind::Rewrite;
  std::string name;
  int depth = 0;
  std::size_t rewrite = 0;  // the rewrite (for a view: the linearize/render rewrite it shows)
  std::optional<std::size_t> match_count;           // absent for view steps
  std::optional<std::pair<std::string, long>> loc;  // call site (file, line)
};

// The steps of one context, in VIZ's order.
std::vector<ContextStep> context_steps(const TraceGroupRecord &group);

// "file:line" as (file, line); a location without a line keeps it all as the file, line -1.
std::pair<std::string, long> split_location(const std::string &loc);

// The program a kernel context's linearize/render rewrite rendered (VIZ's "View Source": the
// SOURCE text of the PROGRAM its render match produced), if the rewrite holds one; the other view
// steps' texts are in program_views.hpp.
std::optional<std::string> rendered_source(const RewriteTrace &trace, const TraceRewrite &rewrite);

// One JSON object per line per context: {"name", "steps": [{"name", "depth", "match_count",
// "loc": [file, line]}]} (null match_count and loc for view steps), as VIZ's /ctxs lists them.
void print_contexts_json(std::ostream &out, const RewriteTrace &trace);
// A readable tree: each context, then its steps indented by depth with match counts and call
// sites (ANSI colors of tinygrad's kernel names removed).
void print_contexts_text(std::ostream &out, const RewriteTrace &trace);

// What a step is called: its rule, or where the rule is written when the trace names none
// (tinygrad's matches), as "folder/file.py:123".
std::string rule_title(const TraceStep &step);

// `text` without ANSI color escapes (tinygrad colors kernel names by axis type).
std::string strip_ansi(const std::string &text);

}  // namespace wavescope::compiler::rewrite
