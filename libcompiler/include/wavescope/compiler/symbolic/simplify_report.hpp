#pragma once
// What `wavectl simplify` reports, and its printers: one expression simplified, each case of a
// corpus file and the totals of a verified run, and the rules of a layer, as JSON (one object per
// line, keys in a fixed order) and text.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

// A rule layer by the name `wavectl simplify --rules` takes: "simple", "symbolic" or "sym"
// (anything else: sym); and the name it prints for it.
const PatternMatcher &rule_layer(std::string_view name);
std::string rule_layer_name(std::string_view name);

// The range of `u` as 64-bit ends: none when it may be invalid or an end is unbounded or wider.
std::optional<std::int64_t> bound_value(const UOp &u, Int v);

// One expression and its simplification, with the equivalence check when one was made.
struct SimplifyReport {
  std::string expr;  // as written
  UOp input, result;
  std::optional<EquivalenceResult> check;
};
// {"expr","simplified","min","max","ops","input_ops"[,"equivalent"]}; min/max null when unknown.
std::string to_json(const SimplifyReport &report);
// The result, its range, its size against the input's and the check's verdict, one per line.
std::string to_text(const SimplifyReport &report);

// One case of a corpus file: its result (its input when it could not be simplified) and range.
struct CaseReport {
  std::string id;
  std::string simplified;
  std::optional<std::int64_t> min, max;
};
CaseReport case_report(const SymbolicCase &c, const UOp &result);
std::string to_json(const CaseReport &report);  // {"id","simplified","min","max"}
std::string to_text(const CaseReport &report);  // ID  RESULT  [MIN, MAX] (or [?])

// The totals of a verified run over a corpus file.
struct CasesSummary {
  std::size_t cases = 0, equivalent = 0, failed = 0;
  std::size_t with_reference = 0, not_larger = 0;  // cases with tinygrad's op count; no larger
  std::size_t ranges = 0, range_match = 0;         // cases with tinygrad's range; equal
  // Counts one simplified case against its references.
  void count(const SymbolicCase &c, const CaseReport &report, std::size_t ops,
             const EquivalenceResult &check);
};
std::string to_text(const CasesSummary &summary);  // one line

// The rules of a layer: family, name and source location of each.
struct RuleListReport {
  const PatternMatcher &rules;
  std::string layer;  // as rule_layer_name gives it
};
std::string to_json(const RuleListReport &report);  // one {"family","rule","loc"} per rule
std::string to_text(const RuleListReport &report);  // a table and a count

}  // namespace wavescope::compiler::symbolic
