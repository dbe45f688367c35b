#include "wavescope/trace/pmc/pmc_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"

namespace wavescope::trace::pmc {
namespace {

using nlohmann::json;
using Align = TextTable::Align;

// The first sentence of a description, cut to fit a table column.
std::string short_description(std::string_view text, std::size_t width = 72) {
  if (const auto end = text.find(". "); end != std::string_view::npos) text = text.substr(0, end);
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  if (text.size() <= width) return std::string(text);
  return std::string(text.substr(0, width - 3)) + "...";
}

std::string_view source_name(CounterSource source) {
  return source == CounterSource::Rocprofiler ? "rocprofiler" : "amd-enum-header";
}

json counter_json(const CounterSample &c) {
  json j = {{"name", c.name},
            {"block", c.block},
            {"select", c.select ? json(*c.select) : json(nullptr)},
            {"known", c.info != nullptr}};
  if (c.info) {
    j["description"] = c.info->description;
    if (!c.info->caveat.empty()) j["caveat"] = c.info->caveat;
  }
  const auto &g = c.geometry;
  j["geometry"] = {{"xcc", g.xcc}, {"inst", g.inst}, {"se", g.se}, {"sa", g.sa}, {"wgp", g.wgp}};
  j["offset"] = c.offset;
  j["sum"] = c.sum;
  if (c.sum_saturated) j["sum_saturated"] = true;
  j["max"] = c.max;
  j["count"] = c.count;
  j["nonzero"] = c.nonzero_slots();
  j["cols"] = c.columns();
  j["rows"] = json::array();
  for (const auto &row : c.rows) {
    json r = {row.xcc, row.inst, row.se, row.sa};
    for (auto v : row.values) r.push_back(v);
    j["rows"].push_back(std::move(r));
  }
  return j;
}

// Indents every line of a rendered table.
std::string indented(const std::string &text, std::string_view indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += fmt::format("{}{}\n", indent, std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool matches_kernel(std::string_view name, std::uint32_t tag, std::string_view kernel) {
  if (kernel.empty() || name == kernel) return true;
  return kernel.find_first_not_of("0123456789") == std::string_view::npos && kernel.size() < 10 &&
         std::stoul(std::string(kernel)) == tag;
}

const CounterCatalogue &checked_catalogue(const CatalogueReport &report) {
  const auto &catalogue = CounterCatalogue::get(report.family);
  if (!report.block.empty() && catalogue.in_block(report.block).empty()) {
    std::string blocks;
    for (auto b : catalogue.blocks()) blocks += fmt::format("{}{}", blocks.empty() ? "" : ", ", b);
    throw Error(ErrorKind::Usage, fmt::format("the {} catalogue has no block '{}' (blocks: {})",
                                              to_string(report.family), report.block, blocks));
  }
  return catalogue;
}

}  // namespace

std::vector<const CapturePmc *> select_events(const Capture &capture, std::string_view kernel) {
  std::vector<const CapturePmc *> selected;
  std::string kernels;
  for (const auto &event : capture.pmc) {
    const auto *program = capture.program(event.kernel_tag);
    const std::string name = !event.program.empty() ? event.program : program ? program->name : "";
    kernels += fmt::format("{}{} (tag {})", kernels.empty() ? "" : ", ", name, event.kernel_tag);
    if (matches_kernel(name, event.kernel_tag, kernel)) selected.push_back(&event);
  }
  if (selected.empty())
    throw Error(ErrorKind::Usage,
                fmt::format("no PMC sample for kernel '{}' (kernels: {})", kernel, kernels));
  return selected;
}

std::string to_json(const DispatchReport &report) {
  const auto &d = report.dispatch;
  json j = {{"file", d.file},
            {"order", d.order},
            {"kernel", d.kernel},
            {"kernel_tag", d.kernel_tag},
            {"processor", d.processor},
            {"family", d.family ? json(to_string(*d.family)) : json(nullptr)},
            {"counters", json::array()},
            {"metrics", json::array()},
            {"notes", d.notes}};
  for (const auto &c : d.counters) j["counters"].push_back(counter_json(c));
  for (const auto &m : d.metrics)
    j["metrics"].push_back({{"name", m.name},
                            {"value", m.value ? json(*m.value) : json(nullptr)},
                            {"text", m.text},
                            {"unit", m.unit},
                            {"formula", m.formula},
                            {"source", m.source}});
  return json_line(j);
}

std::string to_text(const DispatchReport &report) {
  const auto &d = report.dispatch;
  std::string out = fmt::format("{}: kernel {} (tag {}), {} ({}), {} counters\n", d.file, d.kernel,
                                d.kernel_tag, d.processor.empty() ? "unknown GPU" : d.processor,
                                d.family ? fmt::format("{} catalogue", to_string(*d.family))
                                         : std::string("no counter catalogue"),
                                d.counters.size());
  TextTable counters({"counter", "block", "sum", "non-zero", "description"},
                     {Align::Left, Align::Left, Align::Right, Align::Right, Align::Left});
  for (const auto &c : d.counters)
    counters.add_row({c.name, c.block, std::to_string(c.sum) + (c.sum_saturated ? "+" : ""),
                      fmt::format("{}/{}", c.nonzero_slots(), c.count),
                      c.info ? short_description(c.info->description) : "(not in the catalogue)"});
  out += indented(counters.render(), "  ");

  if (report.instances)
    for (const auto &c : d.counters) {
      const auto &g = c.geometry;
      out += fmt::format("\n  {} ({}): {} x {} x {} x {} x {} (xcc x inst x se x sa x wgp)\n",
                         c.name, c.block, g.xcc, g.inst, g.se, g.sa, g.wgp);
      const auto cols = c.columns();
      TextTable rows(cols, std::vector<Align>(cols.size(), Align::Right));
      for (const auto &row : c.rows) {
        std::vector<std::string> cells = {std::to_string(row.xcc), std::to_string(row.inst),
                                          std::to_string(row.se), std::to_string(row.sa)};
        for (auto v : row.values) cells.push_back(std::to_string(v));
        rows.add_row(std::move(cells));
      }
      out += indented(rows.render(), "    ");
    }

  if (!d.metrics.empty()) {
    out += '\n';
    TextTable metrics({"metric", "value", "formula", "source"},
                      {Align::Left, Align::Right, Align::Left, Align::Left});
    for (const auto &m : d.metrics) metrics.add_row({m.name, m.text, m.formula, m.source});
    out += indented(metrics.render(), "  ");
  }
  for (const auto &note : d.notes) out += "  note: " + note + '\n';
  return out;
}

std::string to_json(const CatalogueReport &report) {
  const auto &catalogue = checked_catalogue(report);
  std::string out;
  for (const auto &c : catalogue.counters()) {
    if (!report.block.empty() && c.block != report.block) continue;
    json j = {{"family", to_string(report.family)},
              {"name", c.name},
              {"block", c.block},
              {"select", c.select},
              {"description", c.description},
              {"source", source_name(c.source)}};
    if (!c.caveat.empty()) j["caveat"] = c.caveat;
    if (!out.empty()) out += '\n';
    out += json_line(j);
  }
  return out;
}

std::string to_text(const CatalogueReport &report) {
  const auto &catalogue = checked_catalogue(report);
  TextTable table({"counter", "block", "select", "description"},
                  {Align::Left, Align::Left, Align::Right, Align::Left});
  for (const auto &c : catalogue.counters()) {
    if (!report.block.empty() && c.block != report.block) continue;
    table.add_row({std::string(c.name), std::string(c.block), std::to_string(c.select),
                   short_description(c.description, 90) + (c.caveat.empty() ? "" : " [!]")});
  }
  return fmt::format("{} counter catalogue: {} counters\n", to_string(report.family),
                     table.rows()) +
         table.render() +
         "[!] public sources disagree on this select; the JSON form gives the caveat\n";
}

}  // namespace wavescope::trace::pmc
