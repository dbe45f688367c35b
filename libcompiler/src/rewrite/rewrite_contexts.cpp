#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"

#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/compiler/rewrite/program_views.hpp"

namespace wavescope::compiler::rewrite {

std::pair<std::string, long> split_location(const std::string &loc) {
  const auto colon = loc.rfind(':');
  if (colon == std::string::npos) return {loc, -1};
  long line = 0;
  const char *first = loc.data() + colon + 1, *last = loc.data() + loc.size();
  auto [end, ec] = std::from_chars(first, last, line);
  if (ec != std::errc() || end != last || first == last) return {loc, -1};
  return {loc.substr(0, colon), line};
}

std::vector<ContextStep> context_steps(const TraceGroupRecord &group) {
  std::vector<ContextStep> steps;
  for (std::size_t i = 0; i < group.rewrites.size(); ++i) {
    const auto &r = group.rewrites[i];
    ContextStep s;
    s.name = r.name;
    s.depth = r.depth;
    s.rewrite = i;
    s.match_count = r.steps.size();
    if (!r.loc.empty()) s.loc = split_location(r.loc);
    steps.push_back(std::move(s));
    if (r.name == "linearize/render")
      for (auto [kind, name] : {std::pair{ContextStep::Kind::UOpList, "View UOp List"},
                                std::pair{ContextStep::Kind::Source, "View Source"},
                                std::pair{ContextStep::Kind::Disassembly, "View Disassembly"}}) {
        ContextStep v;
        v.kind = kind;
        v.name = name;
        v.depth = r.depth;
        v.rewrite = i;
        steps.push_back(std::move(v));
      }
  }
  return steps;
}

std::optional<std::string> rendered_source(const RewriteTrace &trace, const TraceRewrite &rewrite) {
  return program_view_text(trace, rewrite, ProgramView::Source);
}

void print_contexts_json(std::ostream &out, const RewriteTrace &trace) {
  for (const auto &g : trace.groups()) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const auto &s : context_steps(g)) {
      nlohmann::ordered_json j;
      j["name"] = s.name;
      j["depth"] = s.depth;
      j["match_count"] = s.match_count ? nlohmann::ordered_json(*s.match_count) : nullptr;
      if (s.loc)
        j["loc"] = {s.loc->first, s.loc->second};
      else
        j["loc"] = nullptr;
      steps.push_back(std::move(j));
    }
    nlohmann::ordered_json line;
    line["name"] = g.name;
    line["steps"] = std::move(steps);
    out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  }
}

void print_contexts_text(std::ostream &out, const RewriteTrace &trace) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < trace.groups().size(); ++i) {
    const auto &g = trace.groups()[i];
    const auto steps = context_steps(g);
    total += steps.size();
    out << fmt::format("{}  {}  ({} steps)\n", i, strip_ansi(g.name), steps.size());
    for (const auto &s : steps) {
      std::string label = std::string(2 + 2 * static_cast<std::size_t>(std::max(s.depth, 0)), ' ');
      label += s.name;
      if (s.match_count && *s.match_count > 0) label += fmt::format(" - {}", *s.match_count);
      std::string where;
      if (s.loc)
        where =
            s.loc->second >= 0 ? fmt::format("{}:{}", s.loc->first, s.loc->second) : s.loc->first;
      out << fmt::format("{:<48}  {}\n", label, where);
    }
  }
  out << fmt::format("{} contexts, {} steps\n", trace.groups().size(), total);
}

std::string rule_title(const TraceStep &step) {
  if (!step.rule.empty()) return step.rule;
  // The file's folder stays: tinygrad has several __init__.py.
  auto slash = step.rule_loc.rfind('/');
  if (slash != std::string::npos && slash > 0) slash = step.rule_loc.rfind('/', slash - 1);
  return slash == std::string::npos ? step.rule_loc : step.rule_loc.substr(slash + 1);
}

std::string strip_ansi(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
      i = j;
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace wavescope::compiler::rewrite
