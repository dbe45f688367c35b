// wavectl pmc: the performance counters sampled after each dispatch of a capture, decoded with
// the per-instance geometry, described from the counter catalogue, plus derived metrics. With
// --counters it lists a GPU family's counter catalogue instead.

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"
#include "wavescope/trace/pmc/pmc_report.hpp"

namespace wavectl {
namespace {

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

void run_pmc(const PmcArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture_dir);
  if (capture.pmc.empty())
    throw wavescope::Error(wavescope::ErrorKind::BadInput,
                           fmt::format("{}: the capture has no PMC samples", args.capture_dir));
  // A sample buffer is a few KiB and decodes in microseconds: no progress line.
  bool first = true;
  for (const auto *event : pmc::select_events(capture, args.kernel)) {
    const auto decoded = pmc::decode_event(capture, *event);
    if (!context.json && !first) std::cout << '\n';
    print_report(pmc::DispatchReport{decoded, args.instances}, context);
    first = false;
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
  print_report(pmc::CatalogueReport{*family, args.block}, context);
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
