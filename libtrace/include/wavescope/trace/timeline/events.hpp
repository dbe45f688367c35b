#pragma once
// What the blob analyzer reports while it replays one SQTT blob (spec §9-§13): paired wave
// lifetimes, dispatch events on wave-slot rows (mapped to PCs where possible), execution-unit
// events linked to their dispatch, barrier waits and shader-clock estimates. Observers turn the
// stream into a timeline model, per-wave instruction lists or per-PC statistics.

#include <cstdint>
#include <span>
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

// A wave's state between two trace events, as AMD's rocprof-trace-decoder names them: IDLE
// until its first instruction, EXEC after an instruction issued, WAIT on an immediate (s_nop,
// s_waitcnt, s_wait_*), a barrier or an RDNA4 s_barrier_wait, STALL from a WAVERDY (the wave
// was ready) until its next instruction issued.
enum class WaveState : std::uint8_t { Idle, Exec, Wait, Stall };
std::string_view to_string(WaveState state);

struct WaveStateSpan {
  WaveState state = WaveState::Idle;
  std::int64_t duration = 0;  // cycles
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
  // Instructions of waves on the traced unit, as rocprof-trace-decoder defines them (spec §11):
  // the wave first tried to issue at `time - stall`; `duration` is the stall plus the
  // instruction's execution cycles (its exec event's length, 1 where it has none), so
  // `duration - stall` is the exec-event length. An RDNA3 BARRIER's duration runs to the wave's
  // next event (BarrierSpan::duration). -1 where undefined (wave ends, other SIMDs, WAVERDY).
  std::int64_t stall = -1;
  std::int64_t duration = -1;
  // An RDNA4 s_barrier_wait, which issues no packet (spec §9.2): reported between the
  // BARRIER_SIGNAL's end and the next instruction's first issue attempt. It is not a VIZ event:
  // row_index is the next event's, and the VIZ timeline leaves it out.
  bool inserted = false;
  // Wave ends of traced waves whose instructions were followed: the wave's state timeline
  // (valid during the callback only).
  std::span<const WaveStateSpan> states;
  // False for a wave end whose wave issued no instruction packet while its PC (the entry)
  // holds no s_endpgm, i.e. an SE without instruction tracing: VIZ still gives it the entry PC,
  // but no instruction is known to have run there.
  bool issued_instructions = true;
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
  // RDNA3 BARRIER: rocprof-trace-decoder's duration, from the first issue attempt to the wave's
  // next event (a WAVERDY counts from the cycle before it); -1 for RDNA4 BARRIER_SIGNAL, whose
  // wait is the s_barrier_wait record.
  std::int64_t duration = -1;
};

// A realtime marker (spec §13): the shader clock and the 100 MHz realtime counter sampled
// together (rocprof-trace-decoder's REALTIME records).
struct RealtimePair {
  std::int64_t shader_clock = 0;
  std::uint64_t realtime = 0;
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
  virtual void on_realtime(const RealtimePair &) {}
};

}  // namespace wavescope::trace::timeline
