// wavectl sqtt timeline CAPTURE_DIR: the VIZ-style timeline model of each blob (wave-slot rows,
// execution-unit rows with links, barrier bars, shader-clock points). --json prints the events
// in the corpus' timeline.jsonl form; the table summarises the rows.

#include <iostream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;
using nlohmann::json;

struct TimelineArgs {
  std::string capture;
  std::string blob;
};

void print_json(const SeTimeline &tl) {
  for (const auto &p : tl.clock)
    print_json_line({{"blob", tl.blob},
                     {"kind", "point"},
                     {"row", "LINE:Shader Clock"},
                     {"name", "freq_hz"},
                     {"value", p.freq_hz},
                     {"ts", p.time}});
  for (const auto &row : tl.rows)
    for (const auto &e : row.events) {
      json j = {{"blob", tl.blob},
                {"kind", "range"},
                {"row", row.name},
                {"name", e.name},
                {"st", e.start},
                {"en", e.end},
                {"category", to_string(e.category)}};
      if (e.has_pc && row.kind == RowKind::WaveSlot)  // exec events reach the PC through "link"
        j["pc"] = e.pc;
      if (row.kind == RowKind::WaveSlot) j["idx"] = e.index;
      if (e.link_row >= 0)
        j["link"] = fmt::format("{}-{}", tl.rows[std::size_t(e.link_row)].name, e.link_index);
      print_json_line(j);
    }
}

void run_timeline(const TimelineArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  CaptureAnalyzer analyzer(capture);
  bool found = args.blob.empty();
  for (const auto &blob : capture.blobs) {
    const std::string name = blob.file_name;
    if (!args.blob.empty() && name != args.blob) continue;
    found = true;
    TimelineBuilder builder(blob.se, name);
    analyzer.analyze(blob, builder);
    const auto tl = builder.finish();
    if (context.json) {
      print_json(tl);
      continue;
    }
    std::cout << fmt::format("{} (SE {}, {}): {} rows, {} waves, {} clock points, cycles {}..{}\n",
                             name, blob.se, blob.program, tl.rows.size(), tl.waves.size(),
                             tl.clock.size(), tl.begin, tl.end);
    if (tl.rows.empty()) continue;
    Table table({"row", "events", "busy cycles", "first", "last"},
                {Table::Align::Left, Table::Align::Right, Table::Align::Right, Table::Align::Right,
                 Table::Align::Right});
    for (const auto &row : tl.rows) {
      std::int64_t busy = 0;
      for (const auto &e : row.events) busy += e.end - e.start;
      table.add_row({row.name, std::to_string(row.events.size()), std::to_string(busy),
                     std::to_string(row.events.front().start),
                     std::to_string(row.events.back().end)});
    }
    std::cout << table.render() << '\n';
  }
  if (!found)
    throw wavescope::Error(
        wavescope::ErrorKind::Usage,
        fmt::format("{}: no blob named '{}' in meta.json", args.capture, args.blob));
}

}  // namespace

void register_sqtt_timeline(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<TimelineArgs>();
  auto *cmd = sqtt.add_subcommand(
      "timeline", "The wave timeline model per blob: wave-slot and exec-unit rows, clock line");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--blob", args->blob, "Only this blob (file name, e.g. se1.bin)");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_timeline(*args, context); });
}

}  // namespace wavectl
