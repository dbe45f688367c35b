#include "wavescope/trace/timeline/instruction_stats.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {

CaptureInstructionStats collect_instruction_stats(const Capture &capture, const std::string &kernel,
                                                  const ProgressSink &progress,
                                                  const AnalysisOptions &options) {
  AnalysisRequest request;
  request.options = options;
  request.kernel = kernel;
  request.pc_stats = true;
  auto analysis = analyze_capture(capture, request, progress);
  CaptureInstructionStats result;
  result.cdna = analysis.cdna;
  result.kernel_found = analysis.selection_found(request);
  result.cdna_mapping = analysis.cdna_mapping;
  result.analyzer = analysis.analyzer;
  // The kernels that have blobs, by tag.
  std::map<std::uint32_t, KernelAnalysis *> with_blobs;
  for (auto &k : analysis.kernels)
    if (!k.blobs.empty()) with_blobs.emplace(k.tag, &k);
  for (auto &[tag, k] : with_blobs)
    result.kernels.push_back({k->name, tag, std::move(k->pc_stats)});
  return result;
}

std::string to_json(const CaptureInstructionStats &stats) {
  std::string out;
  for (const auto &[kernel, tag, acc] : stats.kernels)
    for (const auto &r : acc->rows()) {
      if (!out.empty()) out += '\n';
      out += json_line(nlohmann::json{{"kernel", kernel},
                                      {"pc", r.pc},
                                      {"asm", r.instruction ? r.instruction->text : ""},
                                      {"hits", r.hits},
                                      {"gap_total", r.gap_total},
                                      {"gap_mean", r.gap_mean()},
                                      {"gap_min", r.hits ? r.gap_min : 0},
                                      {"gap_max", r.gap_max},
                                      {"exec_cycles", r.exec_cycles},
                                      {"barrier_wait", r.barrier_wait},
                                      {"timed", r.timed},
                                      {"stall_total", r.stall_total},
                                      {"stall_mean", r.stall_mean()},
                                      {"latency_total", r.latency_total},
                                      {"latency_mean", r.latency_mean()},
                                      {"cost_pct", acc->cost_percent(r)}});
    }
  return out;
}

std::string to_text(const CaptureInstructionStats &stats) {
  using Align = TextTable::Align;
  const auto &cdna_report = stats.cdna_mapping;
  std::string out;
  for (const auto &[kernel, tag, acc] : stats.kernels) {
    out += fmt::format("{} ({} mapped issues, {} issue-gap cycles)\n", kernel, acc->total_hits(),
                       acc->total_gap());
    if (stats.cdna)
      out += fmt::format(
          "CDNA: PCs from wavescope's walk of CDNA_INST packets (tinygrad maps none): {} of {} "
          "packets mapped{}; CDNA traces have no execution-unit events\n",
          cdna_report.mapped, cdna_report.inst_packets,
          cdna_report.first_mismatch.empty() ? ""
                                             : "; first mismatch: " + cdna_report.first_mismatch);
    TextTable table({"pc", "instruction", "hits", "gap total", "mean", "min", "max", "stall",
                     "latency", "exec cyc", "barrier", "cost %"},
                    {Align::Right, Align::Left, Align::Right, Align::Right, Align::Right,
                     Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                     Align::Right, Align::Right});
    for (const auto &r : acc->rows())
      table.add_row(
          {fmt::format("{:#x}", r.pc), r.instruction ? r.instruction->text : "?",
           std::to_string(r.hits), std::to_string(r.gap_total), fmt::format("{:.1f}", r.gap_mean()),
           std::to_string(r.hits ? r.gap_min : 0), std::to_string(r.gap_max),
           r.timed ? fmt::format("{:.1f}", r.stall_mean()) : "",
           r.timed ? fmt::format("{:.1f}", r.latency_mean()) : "", std::to_string(r.exec_cycles),
           r.barrier_wait ? std::to_string(r.barrier_wait) : "",
           fmt::format("{:.1f}", acc->cost_percent(r))});
    out += table.render() + '\n';
  }
  return out;
}

}  // namespace wavescope::trace::timeline
