#pragma once
// What `wavectl sqtt stats` reports, and its printers: per blob of a capture its packets, waves,
// mapped instructions, shader clock and anomalies (a summary each, so a capture of any size is
// analysed in bounded memory), as JSON (one object per blob, keys sorted) and a text table with
// the capture's totals.

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::trace::timeline {

struct BlobStats {
  const CaptureBlob *blob = nullptr;
  sqtt::DecodeSummary decode;
  std::uint64_t anomalies = 0;
  std::uint64_t waves = 0, traced_waves = 0, mapped_instructions = 0;
  std::uint64_t clock_points = 0;
  std::int64_t clock_median_hz = 0;
};

struct CaptureStats {
  std::vector<BlobStats> blobs;  // in capture order
  std::string source;            // the capture's folder or file
  std::string arch;
  std::string processor;
};

// Analyses every blob of a capture; reports "analyze" progress in bytes over the whole capture.
// `capture` must outlive the result.
CaptureStats collect_capture_stats(const Capture &capture, const ProgressSink &progress = {});

std::string to_json(const CaptureStats &stats);
std::string to_text(const CaptureStats &stats);

}  // namespace wavescope::trace::timeline
