// wavectl sqtt insts CAPTURE_DIR: per-PC instruction timing over every mapped wave of each kernel
// (hits, issue-gap statistics, execution cycles, cost %), streamed in bounded memory.

#include <iostream>
#include <map>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "table.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace;
using namespace wavescope::trace::timeline;

struct InstsArgs {
  std::string capture;
  std::string kernel;
};

void run_insts(const InstsArgs &args, const CliContext &context) {
  const auto capture = Capture::open(args.capture);
  const bool cdna = family_of_device(capture.device) == sqtt::Family::Cdna;
  CaptureAnalyzer analyzer(capture);
  CdnaMappingReport cdna_report;
  std::map<std::uint32_t, std::unique_ptr<PcStatsAccumulator>> per_kernel;
  // Progress only for captures big enough to take a while.
  std::uint64_t capture_bytes = 0;
  for (const auto &b : capture.blobs) capture_bytes += b.size;
  ProgressPrinter progress(!context.quiet && capture_bytes > (std::uint64_t{64} << 20));
  std::uint64_t total_bytes = 0, done_bytes = 0;
  for (const auto &b : capture.blobs) total_bytes += b.size;
  for (const auto &blob : capture.blobs) {
    if (!args.kernel.empty() && blob.program != args.kernel) continue;
    auto &acc = per_kernel[blob.kernel_tag];
    if (!acc) acc = std::make_unique<PcStatsAccumulator>(analyzer.program(blob.kernel_tag));
    const wavescope::ProgressSink sink = [&](const wavescope::ProgressUpdate &u) {
      progress.sink()({"analyze", done_bytes + u.done, total_bytes, "bytes"});
    };
    if (cdna) {
      // tinygrad maps no CDNA instructions; wavescope walks the CDNA_INST packets itself.
      CdnaMapper mapper(analyzer.program(blob.kernel_tag), [&](const CdnaMappedInstruction &i) {
        DispatchEvent e;
        e.instruction = i.instruction;
        e.issue_gap = i.issue_gap;
        acc->on_dispatch(e);
      });
      const sqtt::BlobFile file(blob.bytes);
      sqtt::decode_file(
          file, {}, [&](const sqtt::Packet &p) { mapper.on_packet(p); }, &sink);
      const auto &r = mapper.report();
      cdna_report.inst_packets += r.inst_packets;
      cdna_report.mapped += r.mapped;
      cdna_report.lost += r.lost;
      if (cdna_report.first_mismatch.empty()) cdna_report.first_mismatch = r.first_mismatch;
    } else {
      analyzer.analyze(blob, *acc, &sink);
    }
    done_bytes += blob.size;
  }
  progress.finish();
  if (!args.kernel.empty() && per_kernel.empty())
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           fmt::format("{}: no kernel named '{}'", args.capture, args.kernel));
  for (const auto &[tag, acc] : per_kernel) {
    const auto *program = capture.program(tag);
    const std::string kernel = program ? program->name : std::to_string(tag);
    const auto rows = acc->rows();
    if (context.json) {
      for (const auto &r : rows)
        print_json_line({{"kernel", kernel},
                         {"pc", r.pc},
                         {"asm", r.instruction ? r.instruction->text : ""},
                         {"hits", r.hits},
                         {"gap_total", r.gap_total},
                         {"gap_mean", r.gap_mean()},
                         {"gap_min", r.hits ? r.gap_min : 0},
                         {"gap_max", r.gap_max},
                         {"exec_cycles", r.exec_cycles},
                         {"barrier_wait", r.barrier_wait},
                         {"cost_pct", acc->cost_percent(r)}});
      continue;
    }
    std::cout << fmt::format("{} ({} mapped issues, {} issue-gap cycles)\n", kernel,
                             acc->total_hits(), acc->total_gap());
    if (cdna)
      std::cout << fmt::format(
          "CDNA: PCs from wavescope's walk of CDNA_INST packets (tinygrad maps none): {} of {} "
          "packets mapped{}; CDNA traces have no execution-unit events\n",
          cdna_report.mapped, cdna_report.inst_packets,
          cdna_report.first_mismatch.empty() ? ""
                                             : "; first mismatch: " + cdna_report.first_mismatch);
    Table table({"pc", "instruction", "hits", "gap total", "mean", "min", "max", "exec cyc",
                 "barrier", "cost %"},
                {Table::Align::Right, Table::Align::Left, Table::Align::Right, Table::Align::Right,
                 Table::Align::Right, Table::Align::Right, Table::Align::Right, Table::Align::Right,
                 Table::Align::Right, Table::Align::Right});
    for (const auto &r : rows)
      table.add_row({fmt::format("{:#x}", r.pc), r.instruction ? r.instruction->text : "?",
                     std::to_string(r.hits), std::to_string(r.gap_total),
                     fmt::format("{:.1f}", r.gap_mean()), std::to_string(r.hits ? r.gap_min : 0),
                     std::to_string(r.gap_max), std::to_string(r.exec_cycles),
                     r.barrier_wait ? std::to_string(r.barrier_wait) : "",
                     fmt::format("{:.1f}", acc->cost_percent(r))});
    std::cout << table.render() << '\n';
  }
}

}  // namespace

void register_sqtt_insts(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<InstsArgs>();
  auto *cmd = sqtt.add_subcommand(
      "insts", "Per-PC instruction timing: hits, issue gaps, exec cycles, cost %");
  cmd->add_option("CAPTURE_DIR", args->capture, "Capture folder (with meta.json)")->required();
  cmd->add_option("--kernel", args->kernel, "Only this kernel");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_insts(*args, context); });
}

}  // namespace wavectl
