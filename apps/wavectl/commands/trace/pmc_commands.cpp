// wavectl pmc: the performance counters sampled after each dispatch of a capture, decoded with
// the per-instance geometry, described from the counter catalogue, plus derived metrics. With
// --counters it lists a GPU family's counter catalogue instead.

#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/counter_catalogue.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

namespace wavectl {
namespace {

using nlohmann::json;
using namespace wavescope::trace;

constexpr const char *kJsonSchema = R"(
JSON (--json), one object per dispatch:
  {"file":"pmc_0.bin","order":0,"kernel":"E_3","kernel_tag":0,"processor":"gfx1100",
   "family":"gfx11"|null,
   "counters":[{"name":"SQ_INSTS_VALU","block":"SQ","select":62|null,"known":true,
                "description":"...","caveat":"..." (only where sources disagree),
                "geometry":{"xcc":1,"inst":1,"se":6,"sa":2,"wgp":4},"offset":256,
                "sum":2,"max":2,"count":48,"nonzero":1,
                "cols":["XCC","INST","SE","SA","WGP:0",...],"rows":[[0,0,0,0,v0,...],...]}],
   "metrics":[{"name":"VALU utilization","value":0.0123|null,"text":"0.0%","unit":"%",
               "formula":"...","source":"tinygrad"|"rocprofiler"}],
   "notes":["..."]}
With --counters, one object per catalogue entry:
  {"family":"gfx11","name":"SQ_WAVES","block":"SQ","select":4,"description":"...",
   "source":"rocprofiler"|"amd-enum-header","caveat":"..." (only where sources disagree)})";

struct PmcArgs {
  std::string capture_dir;
  std::string kernel;
  bool instances = false;
  std::string counters_family;  // --counters FAMILY
  std::string block;            // --block, with --counters
};

// The first sentence of a description, cut to fit a table column.
std::string short_description(std::string_view text, std::size_t width = 72) {
  if (const auto end = text.find(". "); end != std::string_view::npos) text = text.substr(0, end);
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  if (text.size() <= width) return std::string(text);
  return std::string(text.substr(0, width - 3)) + "...";
}

std::string_view source_name(pmc::CounterSource source) {
  return source == pmc::CounterSource::Rocprofiler ? "rocprofiler" : "amd-enum-header";
}

json counter_json(const pmc::CounterSample &c) {
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

json dispatch_json(const pmc::DispatchCounters &d) {
  json j = {{"file", d.file},
            {"order", d.order},
            {"kernel", d.kernel},
            {"kernel_tag", d.kernel_tag},
            {"processor", d.processor},
            {"family", d.family ? json(pmc::to_string(*d.family)) : json(nullptr)},
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

std::string dispatch_text(const pmc::DispatchCounters &d, bool instances) {
  using Align = Table::Align;
  std::ostringstream out;
  out << fmt::format("{}: kernel {} (tag {}), {} ({}), {} counters\n", d.file, d.kernel,
                     d.kernel_tag, d.processor.empty() ? "unknown GPU" : d.processor,
                     d.family ? fmt::format("{} catalogue", pmc::to_string(*d.family))
                              : std::string("no counter catalogue"),
                     d.counters.size());
  Table counters({"counter", "block", "sum", "non-zero", "description"},
                 {Align::Left, Align::Left, Align::Right, Align::Right, Align::Left});
  for (const auto &c : d.counters)
    counters.add_row({c.name, c.block, std::to_string(c.sum) + (c.sum_saturated ? "+" : ""),
                      fmt::format("{}/{}", c.nonzero_slots(), c.count),
                      c.info ? short_description(c.info->description) : "(not in the catalogue)"});
  out << indented(counters.render(), "  ");

  if (instances)
    for (const auto &c : d.counters) {
      const auto &g = c.geometry;
      out << fmt::format("\n  {} ({}): {} x {} x {} x {} x {} (xcc x inst x se x sa x wgp)\n",
                         c.name, c.block, g.xcc, g.inst, g.se, g.sa, g.wgp);
      const auto cols = c.columns();
      Table rows(cols, std::vector<Align>(cols.size(), Align::Right));
      for (const auto &row : c.rows) {
        std::vector<std::string> cells = {std::to_string(row.xcc), std::to_string(row.inst),
                                          std::to_string(row.se), std::to_string(row.sa)};
        for (auto v : row.values) cells.push_back(std::to_string(v));
        rows.add_row(std::move(cells));
      }
      out << indented(rows.render(), "    ");
    }

  if (!d.metrics.empty()) {
    out << '\n';
    Table metrics({"metric", "value", "formula", "source"},
                  {Align::Left, Align::Right, Align::Left, Align::Left});
    for (const auto &m : d.metrics) metrics.add_row({m.name, m.text, m.formula, m.source});
    out << indented(metrics.render(), "  ");
  }
  for (const auto &note : d.notes) out << "  note: " << note << '\n';
  return out.str();
}

bool matches_kernel(const pmc::DispatchCounters &d, const std::string &kernel) {
  if (kernel.empty() || d.kernel == kernel) return true;
  return kernel.find_first_not_of("0123456789") == std::string::npos && kernel.size() < 10 &&
         std::stoul(kernel) == d.kernel_tag;
}

void run_pmc(const PmcArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture_dir);
  if (capture.pmc.empty())
    throw wavescope::Error(wavescope::ErrorKind::BadInput,
                           fmt::format("{}: the capture has no PMC samples", args.capture_dir));
  std::vector<const CapturePmc *> selected;
  std::string kernels;
  for (const auto &event : capture.pmc) {
    const auto *program = capture.program(event.kernel_tag);
    const std::string name = !event.program.empty() ? event.program : program ? program->name : "";
    kernels += fmt::format("{}{} (tag {})", kernels.empty() ? "" : ", ", name, event.kernel_tag);
    pmc::DispatchCounters probe;
    probe.kernel = name;
    probe.kernel_tag = event.kernel_tag;
    if (matches_kernel(probe, args.kernel)) selected.push_back(&event);
  }
  if (selected.empty())
    throw wavescope::Error(
        wavescope::ErrorKind::Usage,
        fmt::format("no PMC sample for kernel '{}' (kernels: {})", args.kernel, kernels));

  // A sample buffer is a few KiB and decodes in microseconds: no progress line.
  bool first = true;
  for (const auto *event : selected) {
    const auto decoded = pmc::decode_event(capture, *event);
    if (context.json) {
      print_json_line(dispatch_json(decoded));
    } else {
      std::cout << (first ? "" : "\n") << dispatch_text(decoded, args.instances);
      first = false;
    }
  }
}

void run_counters(const PmcArgs &args, const CliContext &context) {
  const auto family = pmc::counter_family_for(args.counters_family);
  if (!family)
    throw wavescope::Error(
        wavescope::ErrorKind::Usage,
        fmt::format(
            "no counter catalogue for '{}' (known: gfx11 / gfx11xx, gfx12 / gfx12xx, gfx950)",
            args.counters_family));
  const auto &catalogue = pmc::CounterCatalogue::get(*family);
  if (!args.block.empty() && catalogue.in_block(args.block).empty()) {
    std::string blocks;
    for (auto b : catalogue.blocks()) blocks += fmt::format("{}{}", blocks.empty() ? "" : ", ", b);
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           fmt::format("the {} catalogue has no block '{}' (blocks: {})",
                                       pmc::to_string(*family), args.block, blocks));
  }
  Table table({"counter", "block", "select", "description"},
              {Table::Align::Left, Table::Align::Left, Table::Align::Right, Table::Align::Left});
  for (const auto &c : catalogue.counters()) {
    if (!args.block.empty() && c.block != args.block) continue;
    if (context.json) {
      json j = {{"family", pmc::to_string(*family)},
                {"name", c.name},
                {"block", c.block},
                {"select", c.select},
                {"description", c.description},
                {"source", source_name(c.source)}};
      if (!c.caveat.empty()) j["caveat"] = c.caveat;
      print_json_line(j);
    } else {
      table.add_row({std::string(c.name), std::string(c.block), std::to_string(c.select),
                     short_description(c.description, 90) + (c.caveat.empty() ? "" : " [!]")});
    }
  }
  if (!context.json) {
    std::cout << fmt::format("{} counter catalogue: {} counters\n", pmc::to_string(*family),
                             table.rows());
    std::cout << table.render();
    std::cout << "[!] public sources disagree on this select; see `--json` for the caveat\n";
  }
}

}  // namespace

void register_pmc_commands(CLI::App &app, CliContext &context) {
  auto *pmc = app.add_subcommand(
      "pmc", "Decode a capture's performance counter samples per dispatch, or list a counter "
             "catalogue (--counters)");
  pmc->footer(kJsonSchema);
  auto args = std::make_shared<PmcArgs>();
  pmc->add_option("CAPTURE_DIR", args->capture_dir, "Capture folder (or its meta.json)");
  pmc->add_option("--kernel", args->kernel, "Only the dispatches of this kernel (name or tag)");
  pmc->add_flag("--instances", args->instances,
                "Show every counter's per-instance rows (XCC, INST, SE, SA, WGP:n)");
  auto *counters = pmc->add_option("--counters", args->counters_family,
                                   "List the counter catalogue of a family or processor "
                                   "(gfx11, gfx12, gfx950, gfx1100, ...) instead");
  pmc->add_option("--block", args->block, "With --counters: only this block (SQ, TCP, GL2C, ...)")
      ->needs(counters);
  add_json_flag(*pmc, context);
  pmc->callback([args, &context] {
    if (!args->counters_family.empty()) {
      if (!args->capture_dir.empty())
        throw wavescope::Error(wavescope::ErrorKind::Usage,
                               "give either CAPTURE_DIR or --counters, not both");
      run_counters(*args, context);
    } else if (args->capture_dir.empty()) {
      throw wavescope::Error(wavescope::ErrorKind::Usage,
                             "pmc needs CAPTURE_DIR (or --counters FAMILY); see --help");
    } else {
      run_pmc(*args, context);
    }
  });
}

}  // namespace wavectl
