#include "wavescope/trace/timeline/pc_stats_analysis.hpp"

namespace wavescope::trace::timeline {

BlobPcStatsReport analyze_pc_stats(CaptureAnalyzer &analyzer, const CaptureBlob &blob,
                                   PcStatsAccumulator &stats, AnalysisObserver *observer,
                                   const ProgressSink *progress) {
  BlobPcStatsReport report;
  report.cdna = family_of_device(analyzer.capture().device) == sqtt::Family::Cdna;
  AnalysisObserver nothing;
  AnalysisObserver &others = observer ? *observer : nothing;
  if (!report.cdna) {
    ObserverFanout fanout({&stats, &others});
    report.blob = analyzer.analyze(blob, fanout, progress);
    return report;
  }
  // The CDNA walk's instructions, timed as rocprof-trace-decoder times them (CdnaMapper), on the
  // analyzer's clock (the tap sees the clock stage's packets).
  CdnaMapper mapper(analyzer.program(blob.kernel_tag), [&](const CdnaMappedInstruction &i) {
    DispatchEvent e;
    e.instruction = i.instruction;
    e.issue_gap = i.issue_gap;
    e.stall = i.stall;
    e.duration = i.duration;
    stats.on_dispatch(e);
  });
  report.blob = analyzer.analyze(
      blob, others, [&](const sqtt::Packet &p) { mapper.on_packet(p); }, progress);
  mapper.finish();
  report.cdna_mapping = mapper.report();
  return report;
}

void add_to(CdnaMappingReport &total, const CdnaMappingReport &blob) {
  total.inst_packets += blob.inst_packets;
  total.mapped += blob.mapped;
  total.lost += blob.lost;
  total.without_wave += blob.without_wave;
  total.without_issue += blob.without_issue;
  total.immediates += blob.immediates;
  total.unplaced_immediates += blob.unplaced_immediates;
  total.stalls += blob.stalls;
  total.waves += blob.waves;
  total.waves_complete += blob.waves_complete;
  total.waves_mapped += blob.waves_mapped;
  if (total.first_mismatch.empty()) total.first_mismatch = blob.first_mismatch;
}

}  // namespace wavescope::trace::timeline
