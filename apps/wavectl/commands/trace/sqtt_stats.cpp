// wavectl sqtt stats CAPTURE_DIR: one line per blob (packets, waves, mapped instructions, clock,
// anomalies) and the capture's totals, streamed in bounded memory.

#include <iostream>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "table.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

void run_stats(const std::string &dir, const CliContext &context) {
  const auto capture = Capture::open(dir);
  CaptureAnalyzer analyzer(capture);
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  ProgressPrinter progress(!context.quiet && capture_bytes > (std::uint64_t{64} << 20));
  Table table({"blob", "kernel", "se", "itrace", "bytes", "packets", "tail nib", "cycles", "waves",
               "mapped", "clock MHz", "anomalies"},
              {Table::Align::Left, Table::Align::Left, Table::Align::Right, Table::Align::Left,
               Table::Align::Right, Table::Align::Right, Table::Align::Right, Table::Align::Right,
               Table::Align::Right, Table::Align::Right, Table::Align::Right, Table::Align::Right});
  std::uint64_t bytes = 0, packets = 0, waves = 0, mapped = 0, anomalies = 0, done = 0;
  std::uint64_t total_bytes = 0;
  for (const auto &b : capture.blobs) total_bytes += b.size;
  for (const auto &blob : capture.blobs) {
    WaveCounter counter;
    ClockSummary clock;
    ObserverFanout fanout({&counter, &clock});
    const wavescope::ProgressSink sink = [&](const wavescope::ProgressUpdate &u) {
      progress.sink()({"analyze", done + u.done, total_bytes, "bytes"});
    };
    const auto report = analyzer.analyze(blob, fanout, &sink);
    done += blob.size;
    const auto &d = report.decode;
    bytes += blob.size;
    packets += d.packets;
    waves += counter.waves;
    mapped += counter.mapped_instructions;
    anomalies += report.anomalies.total();
    if (context.json) {
      print_json_line({{"blob", blob.file_name},
                       {"kernel", blob.program},
                       {"se", blob.se},
                       {"itrace", blob.itrace},
                       {"family", sqtt::to_string(d.family)},
                       {"layout", d.layout ? nlohmann::json(*d.layout) : nlohmann::json()},
                       {"bytes", blob.size},
                       {"packets", d.packets},
                       {"decoded_nibbles", d.decoded_nibbles},
                       {"undecoded_tail_nibbles", d.undecoded_tail_nibbles()},
                       {"last_time", d.last_time},
                       {"waves", counter.waves},
                       {"traced_waves", counter.traced_waves},
                       {"mapped_instructions", counter.mapped_instructions},
                       {"clock_points", clock.points()},
                       {"clock_median_hz", clock.median_hz()},
                       {"anomalies", report.anomalies.total()},
                       {"tinygrad_divergences", d.notes.byte_aligned_ts_delta_s8_w3 +
                                                    d.notes.cdna_header_like_timestamps}});
      continue;
    }
    table.add_row({blob.file_name, blob.program, std::to_string(blob.se),
                   blob.itrace ? "yes" : "no", std::to_string(blob.size), std::to_string(d.packets),
                   std::to_string(d.undecoded_tail_nibbles()), std::to_string(d.last_time),
                   std::to_string(counter.waves), std::to_string(counter.mapped_instructions),
                   clock.points() ? fmt::format("{}", clock.median_hz() / 1'000'000) : "-",
                   std::to_string(report.anomalies.total())});
  }
  progress.finish();
  if (!context.json) {
    std::cout << fmt::format("{} ({}, {}): {} blobs\n", capture.source.string(), capture.arch,
                             capture.device.processor, capture.blobs.size());
    std::cout << table.render();
    std::cout << fmt::format("\ntotal: {} bytes, {} packets, {} waves, {} mapped instructions, {} "
                             "anomalies\n",
                             bytes, packets, waves, mapped, anomalies);
  }
}

}  // namespace

void register_sqtt_stats(CLI::App &sqtt, CliContext &context) {
  auto dir = std::make_shared<std::string>();
  auto *cmd = sqtt.add_subcommand("stats", "Per-blob summary of a capture: packets, waves, clock");
  cmd->add_option("CAPTURE_DIR", *dir, "Capture folder (with meta.json)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([dir, &context] { run_stats(*dir, context); });
}

}  // namespace wavectl
