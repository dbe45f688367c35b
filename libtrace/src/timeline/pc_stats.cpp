#include "wavescope/trace/timeline/pc_stats.hpp"

#include <algorithm>

namespace wavescope::trace::timeline {

PcStatsAccumulator::PcStatsAccumulator(const ProgramMap &program)
    : program_(program), stats_(program.instructions().size()) {
  for (std::size_t i = 0; i < stats_.size(); ++i) {
    stats_[i].pc = program.instructions()[i].address;
    stats_[i].instruction = &program.instructions()[i];
  }
}

PcStat *PcStatsAccumulator::stat_for(const ProgramInstruction *inst) {
  if (!inst) return nullptr;
  const auto *begin = program_.instructions().data();
  if (inst < begin || inst >= begin + stats_.size()) return nullptr;  // another program's
  return &stats_[static_cast<std::size_t>(inst - begin)];
}

void PcStatsAccumulator::on_dispatch(const DispatchEvent &event) {
  PcStat *s = stat_for(event.instruction);
  if (!s || event.issue_gap < 0) return;
  if (event.stall >= 0) {
    ++s->timed;
    s->stall_total += event.stall;
    // An RDNA3 barrier's latency is known when its wait ends (on_barrier).
    if (!event.opens_barrier || event.name != "BARRIER") s->latency_total += event.duration;
  }
  ++s->hits;
  s->gap_total += event.issue_gap;
  s->gap_min = std::min(s->gap_min, event.issue_gap);
  s->gap_max = std::max(s->gap_max, event.issue_gap);
  total_gap_ += event.issue_gap;
  ++total_hits_;
}

void PcStatsAccumulator::on_exec(const ExecEvent &event) {
  PcStat *s = event.linked ? stat_for(event.instruction) : nullptr;
  if (!s) return;
  s->exec_cycles += event.end - event.start;
  ++s->exec_events;
}

void PcStatsAccumulator::on_barrier(const BarrierSpan &span) {
  PcStat *s = stat_for(span.instruction);
  if (!s) return;
  s->barrier_wait += span.end - span.start;
  if (span.instruction->mnemonic == "s_barrier")
    s->latency_total += span.duration >= 0 ? span.duration : span.end - span.start;
}

void PcStatsAccumulator::merge(const PcStatsAccumulator &other) {
  for (std::size_t i = 0; i < stats_.size() && i < other.stats_.size(); ++i) {
    auto &a = stats_[i];
    const auto &b = other.stats_[i];
    if (!b.hits && !b.exec_events) continue;
    a.hits += b.hits;
    a.gap_total += b.gap_total;
    a.gap_min = std::min(a.gap_min, b.gap_min);
    a.gap_max = std::max(a.gap_max, b.gap_max);
    a.exec_cycles += b.exec_cycles;
    a.exec_events += b.exec_events;
    a.barrier_wait += b.barrier_wait;
    a.timed += b.timed;
    a.stall_total += b.stall_total;
    a.latency_total += b.latency_total;
  }
  total_gap_ += other.total_gap_;
  total_hits_ += other.total_hits_;
}

std::vector<PcStat> PcStatsAccumulator::rows() const {
  std::vector<PcStat> out;
  for (const auto &s : stats_)
    if (s.hits || s.exec_events) {
      out.push_back(s);
      if (!s.hits) out.back().gap_min = 0;
    }
  return out;
}

}  // namespace wavescope::trace::timeline
