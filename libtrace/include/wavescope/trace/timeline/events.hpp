#pragma once
// What the blob analyzer reports while it replays one SQTT blob (spec §9-§13): paired wave
// lifetimes, dispatch events on wave-slot rows (mapped to PCs where possible), execution-unit
// events linked to their dispatch, barrier waits and shader-clock estimates. Observers turn the
// stream into a timeline model, per-wave instruction lists or per-PC statistics.

#include <cstdint>
#include <string_view>

#include "wavescope/trace/sqtt/packet_types.hpp"

namespace wavescope::trace::timeline {

struct ProgramInstruction;

// One wave's lifetime: a WAVESTART and the next WAVEEND at the same location (spec §9.5).
struct Wave {
  unsigned se = 0;   // the blob's shader engine (capture-level index)
  unsigned sa = 0;   // RDNA shader array
  unsigned wgp = 0;  // RDNA workgroup processor
  unsigned sh = 0;   // CDNA shader array
  unsigned cu = 0;   // RDNA: wgp | sa << 3 (RDNA3) or << 4 (RDNA4); CDNA: the packet's cu
  unsigned simd = 0;
  unsigned slot = 0;      // wave slot within the SIMD
  std::uint32_t id7 = 0;  // RDNA WAVESTART id7 (opaque); CDNA WAVESTART count
  std::int64_t start = 0, end = 0;
  std::uint64_t start_index = 0, end_index = 0;  // packet indices
  bool traced = false;  // on the unit tinygrad's mapper follows (CU 0, SIMD 0)
  bool mapped = false;  // traced on RDNA with a program: its instructions were followed
};

// What produced an event on a WAVE:<slot> row.
enum class DispatchKind : std::uint8_t {
  Instruction,  // an instruction packet of a wave on the traced unit (mapped or not)
  OtherSimd,    // an OTHER_* INST: a memory op of a wave on another SIMD (never mapped)
  WaveEnd,      // the wave-end record (s_endpgm)
  WaveReady,    // WAVERDY while the slot waits at a barrier
};

// An event on the WAVE:<slot> row: [time, time + 1), or to the wave's next event for a barrier.
struct DispatchEvent {
  unsigned slot = 0;
  std::uint32_t row_index = 0;  // 0-based position in its row (VIZ's idx)
  std::int64_t time = 0;
  std::string_view name;  // VIZ's name: the op category, VALUINST, IMMEDIATE, WAVEEND, ...
  sqtt::PacketType packet = sqtt::PacketType::Nop;
  DispatchKind kind = DispatchKind::Instruction;
  const ProgramInstruction *instruction = nullptr;  // the mapped instruction, if any
  bool has_pc = false;   // the walk knows the PC (a wave end on a non-itrace SE: the entry PC)
  std::uint64_t pc = 0;  // ELF address when has_pc
  // Mapped instructions and wave ends: cycles since the wave's previous mapped issue (or its
  // start); -1 otherwise.
  std::int64_t issue_gap = -1;
  std::uint64_t wave_number = 0;  // which wave of this slot (per blob, from 0)
  bool expects_exec = false;      // queued for an execution-unit event (spec §12.2)
  bool opens_barrier = false;     // BARRIER / BARRIER_SIGNAL
};

// An execution-unit event (ALUEXEC/VMEMEXEC), linked first-in first-out to a dispatch.
struct ExecEvent {
  std::string_view row;   // "ALUEXEC:0 VALU", "VMEMEXEC:0 LDS", ... (ALT merged)
  std::string_view name;  // "VALU", "LDS_ALT", "VALU_WMMA", ...
  std::int64_t start = 0, end = 0;
  bool linked = false;  // false: no dispatch was pending (e.g. a trace that starts mid-kernel)
  unsigned slot = 0;    // the dispatch's row and index, when linked
  std::uint32_t row_index = 0;
  std::uint64_t wave_number = 0;
  const ProgramInstruction *instruction = nullptr;  // the dispatch's instruction, if mapped
  std::uint64_t pc = 0;
};

// A barrier wait: the BARRIER/BARRIER_SIGNAL dispatch extended to the wave's next event.
struct BarrierSpan {
  unsigned slot = 0;
  std::uint32_t row_index = 0;
  std::int64_t start = 0, end = 0;
  const ProgramInstruction *instruction = nullptr;
  std::uint64_t pc = 0;
};

// A shader-clock estimate from two consecutive realtime markers (spec §13).
struct ClockPoint {
  std::int64_t time = 0;  // the second marker's shader time
  std::int64_t freq_hz = 0;
};

// Problems the analyzer tolerated instead of failing (tinygrad would assert on most).
struct AnalysisAnomalies {
  std::uint64_t wave_end_without_start = 0;
  std::uint64_t wave_start_on_busy_slot = 0;
  std::uint64_t waves_without_end = 0;
  std::uint64_t instructions_without_wave = 0;  // instruction packet for a slot with no wave
  std::uint64_t pc_outside_text = 0;            // the walk left the PC map
  std::uint64_t branch_without_jump = 0;        // a branch met a non-JUMP packet: walk lost sync
  std::uint64_t exec_without_dispatch = 0;
  std::uint64_t dropped_dispatches = 0;             // exec queues capped (garbage input)
  std::uint64_t marker_pairs_without_progress = 0;  // realtime did not advance: no clock point

  // Everything except marker pairs without progress (a coarse clock, not broken data).
  std::uint64_t total() const {
    return wave_end_without_start + wave_start_on_busy_slot + waves_without_end +
           instructions_without_wave + pc_outside_text + branch_without_jump +
           exec_without_dispatch + dropped_dispatches;
  }
};

class AnalysisObserver {
public:
  virtual ~AnalysisObserver() = default;
  virtual void on_wave(const Wave &) {}               // at the wave's end
  virtual void on_dispatch(const DispatchEvent &) {}  // in stream order
  virtual void on_exec(const ExecEvent &) {}
  virtual void on_barrier(const BarrierSpan &) {}  // when the wait ends
  virtual void on_clock(const ClockPoint &) {}
};

}  // namespace wavescope::trace::timeline
