#include "wavescope/trace/timeline/capture_stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {

CaptureStats collect_capture_stats(const Capture &capture, const ProgressSink &progress) {
  CaptureStats stats;
  stats.source = capture.source.string();
  stats.arch = capture.arch;
  stats.processor = capture.device.processor;
  for (const auto &b : analyze_capture(capture, {}, progress).blobs)
    stats.blobs.push_back({b.blob, b.report.decode, b.report.anomalies.total(), b.report.waves,
                           b.traced_waves, b.mapped_instructions, b.clock_points,
                           b.clock_median_hz});
  return stats;
}

std::string to_json(const CaptureStats &stats) {
  std::string out;
  for (const auto &s : stats.blobs) {
    const auto &blob = *s.blob;
    const auto &d = s.decode;
    const nlohmann::json j = {{"blob", blob.file_name},
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
                              {"waves", s.waves},
                              {"traced_waves", s.traced_waves},
                              {"mapped_instructions", s.mapped_instructions},
                              {"clock_points", s.clock_points},
                              {"clock_median_hz", s.clock_median_hz},
                              {"anomalies", s.anomalies},
                              {"tinygrad_divergences", d.notes.byte_aligned_ts_delta_s8_w3 +
                                                           d.notes.cdna_header_like_timestamps}};
    if (!out.empty()) out += '\n';
    out += json_line(j);
  }
  return out;
}

std::string to_text(const CaptureStats &stats) {
  using Align = TextTable::Align;
  TextTable table({"blob", "kernel", "se", "itrace", "bytes", "packets", "tail nib", "cycles",
                   "waves", "mapped", "clock MHz", "anomalies"},
                  {Align::Left, Align::Left, Align::Right, Align::Left, Align::Right, Align::Right,
                   Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
                   Align::Right});
  std::uint64_t bytes = 0, packets = 0, waves = 0, mapped = 0, anomalies = 0;
  for (const auto &s : stats.blobs) {
    const auto &blob = *s.blob;
    const auto &d = s.decode;
    bytes += blob.size;
    packets += d.packets;
    waves += s.waves;
    mapped += s.mapped_instructions;
    anomalies += s.anomalies;
    table.add_row({blob.file_name, blob.program, std::to_string(blob.se),
                   blob.itrace ? "yes" : "no", std::to_string(blob.size), std::to_string(d.packets),
                   std::to_string(d.undecoded_tail_nibbles()), std::to_string(d.last_time),
                   std::to_string(s.waves), std::to_string(s.mapped_instructions),
                   s.clock_points ? fmt::format("{}", s.clock_median_hz / 1'000'000) : "-",
                   std::to_string(s.anomalies)});
  }
  return fmt::format("{} ({}, {}): {} blobs\n", stats.source, stats.arch, stats.processor,
                     stats.blobs.size()) +
         table.render() +
         fmt::format("\ntotal: {} bytes, {} packets, {} waves, {} mapped instructions, {} "
                     "anomalies\n",
                     bytes, packets, waves, mapped, anomalies);
}

}  // namespace wavescope::trace::timeline
