#pragma once
// Per-wave instruction timelines (spec §10-§12.4): for every wave, its location and lifetime; for
// waves on the traced unit, the mapped instruction stream with issue times, issue gaps, the
// execution events linked to each instruction and barrier waits. The corpus' waves.jsonl holds
// the same data as tinygrad computes it.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "wavescope/trace/timeline/events.hpp"

namespace wavescope::trace::timeline {

struct ExecSpan {
  std::string_view row, name;
  std::int64_t start = 0, end = 0;
};

struct InstructionTiming {
  std::uint64_t pc = 0;                             // ELF address
  const ProgramInstruction *instruction = nullptr;  // nullptr for a wave end whose PC holds no
                                                    // s_endpgm (non-itrace SEs report the entry)
  std::int64_t time = 0;                            // issue cycle (wave end: the WAVEEND time)
  std::int64_t issue_gap = 0;  // cycles since the previous issue of the wave, or its start
  sqtt::PacketType packet = sqtt::PacketType::Nop;
  std::string_view name;  // VIZ name: op category, VALUINST, IMMEDIATE, WAVEEND, ...
  std::int64_t bar_start = 0, bar_end = 0;  // the dispatch bar (barriers: to the next event)
  std::int64_t barrier_wait = 0;            // bar length of a BARRIER/BARRIER_SIGNAL, else 0
  // The linked execution-unit events: WaveTrace::exec(*this), exec_count of them from
  // exec_first in the wave's exec_spans (one array per wave, no allocation per instruction).
  std::uint32_t exec_first = 0, exec_count = 0;
  bool is_wave_end = false;
  // rocprof-trace-decoder's figures (DispatchEvent::stall/duration): the wave first tried to
  // issue at time - stall; duration - stall is the execution time. -1 on the wave-end record.
  std::int64_t stall = -1;
  std::int64_t duration = -1;
  bool inserted = false;  // an RDNA4 s_barrier_wait, which has no packet
};

struct WaveTrace {
  Wave wave;
  bool mapped = false;  // on the traced unit (RDNA CU 0 / SIMD 0): instructions were followed
  // The instructions in issue order, ending with the wave-end record (s_endpgm). A wave on an
  // SE without instruction tracing has none at all (unless its entry is the s_endpgm).
  std::vector<InstructionTiming> instructions;
  // The stream's records: instructions.size(), or, where only counts were kept, their number.
  std::size_t instruction_count = 0;
  std::vector<WaveStateSpan> states;  // traced RDNA waves: the state timeline, start to end
  // Every instruction's execution-unit events, instruction by instruction (each instruction's
  // in the order they arrived); an instruction's are exec(instruction).
  std::vector<ExecSpan> exec_spans;

  std::span<const ExecSpan> exec(const InstructionTiming &i) const {
    return std::span<const ExecSpan>(exec_spans).subspan(i.exec_first, i.exec_count);
  }
  // The summed length of an instruction's execution-unit events.
  std::int64_t exec_cycles(const InstructionTiming &i) const {
    std::int64_t total = 0;
    for (const auto &e : exec(i)) total += e.end - e.start;
    return total;
  }
};

// Collects WaveTraces in order of the waves' ends.
class WaveTraceCollector final : public AnalysisObserver {
public:
  // `map_instructions` false: waves only (no per-instruction records). `keep_records` false:
  // each traced wave's records are counted (instruction_count), not kept.
  explicit WaveTraceCollector(bool map_instructions = true, bool keep_records = true)
      : map_(map_instructions), keep_(keep_records) {}
  void on_wave(const Wave &wave) override;
  void on_dispatch(const DispatchEvent &event) override;
  void on_exec(const ExecEvent &event) override;
  void on_barrier(const BarrierSpan &span) override;

  std::vector<WaveTrace> take();

private:
  struct Ref {
    std::size_t trace = kNone, instruction = 0;
  };
  static constexpr std::size_t kNone = ~std::size_t{0};
  // Where a slot's dispatch row is recorded, nullptr if it is not.
  const Ref *ref(unsigned slot, std::uint32_t row_index) const;
  // An exec event waiting for take() to place it in its wave's exec_spans.
  struct PendingExec {
    Ref at;
    ExecSpan span;
  };
  bool map_, keep_;
  std::vector<WaveTrace> traces_;      // finished ones in order_
  std::vector<std::size_t> order_;     // traces_ indices in order of wave ends
  std::vector<std::int64_t> current_;  // per slot: traces_ index of the wave being filled, -1
  std::vector<std::int64_t> ended_;    // per slot: the traced wave whose WAVEEND is next
  // Per slot, by row index (the analyzer numbers a slot's dispatches 0, 1, ...): where each
  // recorded dispatch's InstructionTiming is, for the exec events and barrier ends linked to it.
  std::vector<std::vector<Ref>> by_row_;
  std::vector<PendingExec> exec_;  // in arrival order
};

}  // namespace wavescope::trace::timeline
