#pragma once
// Per-PC instruction timing aggregated over every mapped wave (the data behind an RGP-style
// instruction-timing table): hit count, issue-gap statistics, execution cycles and barrier waits.
// The accumulator keeps one fixed-size record per instruction of the program, so it runs over
// traces of any length in bounded memory.
//
// "Cost" is an instruction's share of all issue-gap cycles of the kernel's mapped waves: the
// cycles its waves spent between the previous issue and this one (spec §11: a bound on idle plus
// stall), which is where a kernel's time goes from the instruction stream's point of view.

#include <cstdint>
#include <limits>
#include <vector>

#include "wavescope/trace/timeline/events.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::timeline {

struct PcStat {
  std::uint64_t pc = 0;
  const ProgramInstruction *instruction = nullptr;
  std::uint64_t hits = 0;
  std::int64_t gap_total = 0;
  std::int64_t gap_min = std::numeric_limits<std::int64_t>::max();
  std::int64_t gap_max = 0;
  std::int64_t exec_cycles = 0;  // summed durations of the linked execution-unit events
  std::uint64_t exec_events = 0;
  std::int64_t barrier_wait = 0;  // summed barrier bars
  // rocprof-trace-decoder's split (DispatchEvent::stall/duration), over the `timed` hits that
  // have one (not the wave-end records): stall cycles, and latency = duration (stall plus
  // execution; an RDNA3 barrier to the wave's next event).
  std::uint64_t timed = 0;
  std::int64_t stall_total = 0;
  std::int64_t latency_total = 0;

  double gap_mean() const { return hits ? double(gap_total) / double(hits) : 0.0; }
  double stall_mean() const { return timed ? double(stall_total) / double(timed) : 0.0; }
  double latency_mean() const { return timed ? double(latency_total) / double(timed) : 0.0; }
};

class PcStatsAccumulator final : public AnalysisObserver {
public:
  explicit PcStatsAccumulator(const ProgramMap &program);
  void on_dispatch(const DispatchEvent &event) override;
  void on_exec(const ExecEvent &event) override;
  void on_barrier(const BarrierSpan &span) override;

  // Adds another accumulator's counts (same program).
  void merge(const PcStatsAccumulator &other);
  // The instructions that were hit, in address order.
  std::vector<PcStat> rows() const;
  std::int64_t total_gap() const { return total_gap_; }
  std::uint64_t total_hits() const { return total_hits_; }
  // An instruction's share of total_gap(), in percent.
  double cost_percent(const PcStat &stat) const {
    return total_gap_ ? 100.0 * double(stat.gap_total) / double(total_gap_) : 0.0;
  }

private:
  PcStat *stat_for(const ProgramInstruction *inst);
  const ProgramMap &program_;
  std::vector<PcStat> stats_;  // by instruction index
  std::int64_t total_gap_ = 0;
  std::uint64_t total_hits_ = 0;
};

}  // namespace wavescope::trace::timeline
