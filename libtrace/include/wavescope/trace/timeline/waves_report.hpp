#pragma once
// What `wavectl sqtt waves` reports, and its printers: every wave of a capture's blobs (location,
// start, end, whether its instructions were mapped), optionally with each traced wave's mapped
// instruction stream, as JSON (one object per wave, keys sorted) and as a text table.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::trace::timeline {

struct CaptureWaves {
  struct Entry {
    const CaptureBlob *blob = nullptr;
    WaveTrace trace;
  };
  std::vector<Entry> waves;   // in blob order, then in the order the analysis finished them
  std::size_t blobs = 0;      // blobs analysed
  bool kernel_found = false;  // some blob belongs to the kernel asked for (or none was asked for)
  bool cdna = false;          // CDNA locations (se, sh, cu) instead of RDNA's (se, sa, wgp, cu)
  std::string source;         // the capture's folder or file
  std::string arch;
  std::shared_ptr<CaptureAnalyzer> analyzer;  // owns the program maps the traces point into
};

// Analyses the blobs of `kernel` (empty: every blob) of a capture; reports "analyze" progress in
// bytes. Without `instructions` the traced waves' records are counted, not kept (what the text
// and the JSON without "insts" print). `capture` must outlive the result.
CaptureWaves collect_waves(const Capture &capture, const std::string &kernel,
                           const ProgressSink &progress = {}, const AnalysisOptions &options = {},
                           bool instructions = true);

struct WavesReport {
  const CaptureWaves &waves;
  bool instructions = false;  // the JSON form adds each mapped wave's instructions ("insts")
};
std::string to_json(const WavesReport &report);
std::string to_text(const WavesReport &report);

// What stream_waves_json saw.
struct WavesStreamSummary {
  std::size_t blobs = 0;      // blobs analysed
  std::size_t waves = 0;      // lines written
  bool kernel_found = false;  // as CaptureWaves::kernel_found
};

// The JSON form of collect_waves' report (to_json's lines, each followed by a newline: the same
// bytes `wavectl sqtt waves --json` prints), written as each blob is analysed, so no blob's
// waves are kept past its lines and memory stays bounded on a capture of any size. `write` gets
// the text in pieces of at least `piece_bytes` (but the last), each ending at a line's end;
// `instructions` adds "insts".
WavesStreamSummary stream_waves_json(const Capture &capture, const std::string &kernel,
                                     bool instructions,
                                     const std::function<void(std::string_view)> &write,
                                     const ProgressSink &progress = {},
                                     const AnalysisOptions &options = {},
                                     std::size_t piece_bytes = std::size_t{1} << 20);

}  // namespace wavescope::trace::timeline
