#include "wavescope/trace/timeline/capture_stats.hpp"

#include <fmt/format.h>

#include "json_writer.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

namespace wavescope::trace::timeline {

CaptureStats collect_capture_stats(const Capture &capture, const ProgressSink &progress) {
  CaptureStats stats;
  stats.source = capture.source.string();
  stats.arch = capture.arch;
  stats.processor = capture.device.processor;
  // Only a small summary of each blob is kept, taken as the blob is analysed.
  AnalysisRequest request;
  stats.blobs.reserve(capture.blobs.size());  // many thousand: growing copies them over again
  request.on_blob = [&](BlobAnalysis &&b) {
    stats.blobs.push_back({b.blob, b.report.decode, b.report.anomalies.total(), b.report.waves,
                           b.traced_waves, b.mapped_instructions, b.clock_points,
                           b.clock_median_hz});
  };
  analyze_capture(capture, request, progress);
  return stats;
}

std::string to_json(const CaptureStats &stats) {
  std::string out;
  out.reserve(stats.blobs.size() * 400);  // a blob's line is ~350 bytes
  for (const auto &s : stats.blobs) {
    const auto &blob = *s.blob;
    const auto &d = s.decode;
    if (!out.empty()) out += '\n';
    // Keys in byte order, as nlohmann's object printed them.
    JsonWriter j(out);
    j.begin_object();
    j.field("anomalies", s.anomalies);
    j.field("blob", blob.file_name);
    j.field("bytes", blob.size);
    j.field("clock_median_hz", s.clock_median_hz);
    j.field("clock_points", s.clock_points);
    j.field("decoded_nibbles", d.decoded_nibbles);
    j.field("family", sqtt::to_string(d.family));
    j.field("itrace", blob.itrace);
    j.field("kernel", blob.program);
    j.field("last_time", d.last_time);
    if (d.layout)
      j.field("layout", *d.layout);
    else
      j.field("layout", nullptr);
    j.field("mapped_instructions", s.mapped_instructions);
    j.field("packets", d.packets);
    j.field("se", blob.se);
    j.field("tinygrad_divergences",
            d.notes.byte_aligned_ts_delta_s8_w3 + d.notes.cdna_header_like_timestamps);
    j.field("traced_waves", s.traced_waves);
    j.field("undecoded_tail_nibbles", d.undecoded_tail_nibbles());
    j.field("waves", s.waves);
    j.end_object();
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
