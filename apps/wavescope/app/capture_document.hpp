#pragma once
// An opened capture folder (meta.json layout): every program disassembled into a KernelCode, and
// per dispatch the SQTT blob of each shader engine analysed by libtrace into a VIZ-style timeline,
// the wave list, the mapped waves' instruction streams and per-PC timing statistics, plus the
// dispatch's PMC counters. Loading runs off the GUI thread; the document is read-only afterwards.

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/document.hpp"
#include "app/document_loader.hpp"
#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_sample.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::gui {

// One shader engine's blob of one dispatch, analysed.
struct ShaderEngineTrace {
  const trace::CaptureBlob *blob = nullptr;  // into CaptureDocument::capture
  trace::timeline::SeTimeline timeline;      // rows, clock points, every wave of the SE
  trace::timeline::BlobReport report;        // decode summary and anomalies
  // The waves whose instructions were followed (traced unit), with their instruction streams.
  std::vector<trace::timeline::WaveTrace> mapped_waves;
  // Per-PC timing over this SE's mapped waves.
  std::unique_ptr<trace::timeline::PcStatsAccumulator> stats;
  trace::timeline::CdnaMappingReport cdna_mapping;  // CDNA: how far CdnaMapper's walk got
  std::uint64_t mapped_instructions = 0;  // dispatches the BlobAnalyzer mapped (tinygrad's count)
  std::uint64_t clock_median_hz = 0;

  // Instructions mapped to a PC: the BlobAnalyzer's on RDNA, CdnaMapper's walk on CDNA.
  std::uint64_t instructions_mapped() const {
    return mapped_instructions + cdna_mapping.mapped + cdna_mapping.immediates;
  }

  // The mapped trace of timeline.waves[wave], or nullptr when that wave was not followed.
  const trace::timeline::WaveTrace *mapped_trace(int wave) const;
  std::unordered_map<std::uint64_t, std::size_t> mapped_by_start;  // Wave::start_index -> trace
};

// One program of the capture and everything traced while it ran.
struct CaptureDispatch {
  const trace::CaptureProgram *program = nullptr;  // into CaptureDocument::capture
  KernelCode code;
  std::vector<ShaderEngineTrace> engines;  // in capture order of the blobs
  // Per-PC timing over every SE (merged), and its cost shares for the ISA/CFG heat.
  std::unique_ptr<trace::timeline::PcStatsAccumulator> stats;
  std::map<std::uint64_t, double> heat;
  std::vector<trace::pmc::DispatchCounters> counters;  // PMC events of this program
  std::uint64_t waves = 0;

  // The engine worth showing first: the one with the most mapped instructions, else the most
  // timeline events; 0 when there is none.
  int default_engine() const;
};

class CaptureDocument final : public Document {
public:
  DocumentKind kind() const override { return DocumentKind::Capture; }
  int kernel_count() const override { return static_cast<int>(dispatches.size()); }
  const KernelCode *kernel(int index) const override {
    return index >= 0 && index < kernel_count() ? &dispatches[static_cast<std::size_t>(index)].code
                                                : nullptr;
  }
  const std::map<std::uint64_t, double> *pc_heat(int index) const override {
    if (index < 0 || index >= kernel_count()) return nullptr;
    const auto &heat = dispatches[static_cast<std::size_t>(index)].heat;
    return heat.empty() ? nullptr : &heat;
  }
  const trace::profile::Profile *profile() const override { return profile_data.get(); }

  const CaptureDispatch *dispatch(int index) const {
    return index >= 0 && index < kernel_count() ? &dispatches[static_cast<std::size_t>(index)]
                                                : nullptr;
  }
  const ShaderEngineTrace *engine(int kernel, int se) const;

  trace::Capture capture;
  // Owns the PC maps the statistics point into; kept for the document's lifetime.
  std::shared_ptr<trace::timeline::CaptureAnalyzer> analyzer;
  std::vector<CaptureDispatch> dispatches;  // one per program, in meta.json order
  std::vector<std::string> notes;           // decode oddities worth telling the user
  // The profile the capture came from (a tinygrad profile pickle), for its timeline.
  std::shared_ptr<const trace::profile::Profile> profile_data;
};

// Opens and analyses a capture folder (or its meta.json). Reports progress per stage
// ("programs", "analyze" in bytes, "pmc"). Throws wavescope::Error with a message naming the
// file and the problem.
std::shared_ptr<CaptureDocument> load_capture(const QString &path, const OpenOptions &options = {},
                                              const ProgressSink &progress = {});

}  // namespace wavescope::gui
