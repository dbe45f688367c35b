#include "wavescope/compiler/symbolic/simplify_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {
namespace {

bool may_be_invalid(const UOp &u) {
  for (const auto &n : toposort(u))
    if (n.is_invalid()) return true;
  return false;
}

nlohmann::ordered_json bound_json(const std::optional<std::int64_t> &v) {
  if (!v) return nullptr;
  return *v;
}

std::string range_text(const UOp &u) {
  if (may_be_invalid(u)) return "may be invalid";
  auto end = [](Int v) {
    return is_finite(v) ? to_string(v) : std::string(v < 0 ? "-inf" : "inf");
  };
  return fmt::format("[{}, {}]", end(u.vmin()), end(u.vmax()));
}

}  // namespace

const PatternMatcher &rule_layer(std::string_view name) {
  if (name == "simple") return symbolic_simple();
  if (name == "symbolic") return symbolic();
  return sym();
}

std::string rule_layer_name(std::string_view name) {
  if (name == "simple") return "symbolic_simple";
  return name == "symbolic" ? "symbolic" : "sym";
}

std::optional<std::int64_t> bound_value(const UOp &u, Int v) {
  if (may_be_invalid(u) || !is_finite(v) || !fits_int64(v)) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::string to_json(const SimplifyReport &r) {
  nlohmann::ordered_json j;
  j["expr"] = r.expr;
  j["simplified"] = render_expression(r.result);
  j["min"] = bound_json(bound_value(r.result, r.result.vmin()));
  j["max"] = bound_json(bound_value(r.result, r.result.vmax()));
  j["ops"] = count_operations(r.result);
  j["input_ops"] = count_operations(r.input);
  if (r.check) j["equivalent"] = r.check->equivalent;
  return json_line(j) + '\n';
}

std::string to_text(const SimplifyReport &r) {
  std::string text = render_expression(r.result) + '\n';
  text += "range: " + range_text(r.result) + '\n';
  text +=
      fmt::format("ops: {} (input {})\n", count_operations(r.result), count_operations(r.input));
  if (r.check)
    text += r.check->equivalent
                ? fmt::format("verified: equivalent at {} points{}\n", r.check->points,
                              r.check->exhaustive ? " (every point of the domain)" : " (sampled)")
                : "NOT EQUIVALENT: " + r.check->reason + "\n";
  return text;
}

CaseReport case_report(const SymbolicCase &c, const UOp &result) {
  return {c.id, render_expression(result), bound_value(result, result.vmin()),
          bound_value(result, result.vmax())};
}

std::string to_json(const CaseReport &r) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["simplified"] = r.simplified;
  j["min"] = bound_json(r.min);
  j["max"] = bound_json(r.max);
  return json_line(j) + '\n';
}

std::string to_text(const CaseReport &r) {
  auto end = [](const std::optional<std::int64_t> &v) {
    return v ? std::to_string(*v) : std::string("null");
  };
  return fmt::format("{}  {}  {}\n", r.id, r.simplified,
                     r.min ? fmt::format("[{}, {}]", end(r.min), end(r.max)) : "[?]");
}

void CasesSummary::count(const SymbolicCase &c, const CaseReport &report, std::size_t ops,
                         const EquivalenceResult &check) {
  if (check.equivalent) ++equivalent;
  if (c.tinygrad_ops) {
    ++with_reference;
    if (check.equivalent && ops <= *c.tinygrad_ops) ++not_larger;
  }
  if (c.expected_min && report.min) {
    ++ranges;
    if (fits_int64(*c.expected_min) && fits_int64(*c.expected_max) &&
        *report.min == static_cast<std::int64_t>(*c.expected_min) &&
        report.max == static_cast<std::int64_t>(*c.expected_max))
      ++range_match;
  }
}

std::string to_text(const CasesSummary &s) {
  return fmt::format("{} cases: {} equivalent, {}/{} with no more ops than tinygrad, ranges {}/{} "
                     "as expected, {} failed\n",
                     s.cases, s.equivalent, s.not_larger, s.with_reference, s.range_match, s.ranges,
                     s.failed);
}

std::string to_json(const RuleListReport &r) {
  std::string out;
  for (const auto &rule : r.rules.rules()) {
    nlohmann::ordered_json j;
    j["family"] = rule->family();
    j["rule"] = rule->name();
    j["loc"] = rule->location_text();
    out += json_line(j) + '\n';
  }
  return out;
}

std::string to_text(const RuleListReport &r) {
  TextTable table({"family", "rule", "location"});
  for (const auto &rule : r.rules.rules())
    table.add_row({rule->family(), rule->name(), rule->location_text()});
  return table.render() + fmt::format("{} rules in layer '{}'\n", r.rules.size(), r.layer);
}

}  // namespace wavescope::compiler::symbolic
