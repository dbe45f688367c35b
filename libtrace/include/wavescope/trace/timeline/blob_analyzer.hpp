#pragma once
// Replays one SQTT blob's packets into wave lifetimes, PC-mapped dispatches, linked execution
// events, barrier waits and clock points (spec §9-§13), reporting them to an AnalysisObserver as
// they become known. State is a few fixed tables per wave slot plus the pending-dispatch queues,
// so any length of stream is analyzed in bounded memory.
//
// The rules are tinygrad's (map_insts and VIZ's sqtt_timeline), so the results agree with the
// corpus' waves.jsonl and timeline.jsonl; where tinygrad would stop with an assertion (an exec
// packet with nothing pending, an instruction on an empty slot, a branch without a JUMP packet),
// the analyzer carries on and counts the anomaly.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/sqtt/packet.hpp"
#include "wavescope/trace/timeline/events.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::sqtt {
class BlobFile;
}

namespace wavescope::trace::timeline {

class PcStatsAccumulator;
class WaveTraceCollector;
class TimelineBuilder;
class ClockSummary;
struct OpInfo;
struct OpTables;

// The consumers of one blob's analysis. The analyzer calls each one it is given directly (no
// fan-out, no virtual call for the ones named here), and does only the work they need: with
// none that takes dispatch events, no event is built and the stall/duration model and wave
// states are not kept; the counts (waves, traced waves, mapped instructions, anomalies) are
// always kept.
struct AnalysisSinks {
  PcStatsAccumulator *pc_stats = nullptr;
  WaveTraceCollector *waves = nullptr;
  TimelineBuilder *timeline = nullptr;
  ClockSummary *clock = nullptr;
  AnalysisObserver *observer = nullptr;  // any other consumer, through its virtual methods
};

class BlobAnalyzer {
public:
  // `program` may be null (no PC mapping); `se` is recorded in every Wave.
  BlobAnalyzer(const ProgramMap *program, unsigned se, AnalysisObserver &observer);
  BlobAnalyzer(const ProgramMap *program, unsigned se, const AnalysisSinks &sinks);
  // Starts over on another blob, keeping what the previous ones allocated (open-wave pages,
  // exec queues, state histories): a capture is thousands of blobs of a few KB, and one analyzer
  // reset per blob costs what the blob holds, not a fresh set of tables.
  void reset(const ProgramMap *program, unsigned se, const AnalysisSinks &sinks);

  // Feed every packet of the blob in order (tail packets are ignored), one by one...
  void on_packet(const sqtt::Packet &packet) {
    if (wants(packet)) handle(packet.type, packet.raw, packet.time, packet.index);
  }
  // The packets it acts on: a third of RDNA packets (the rest are NOPs, registers, wave states,
  // time deltas). It takes every TS_DELTA_OR_MARK*; handle() keeps the realtime markers.
  bool wants(const sqtt::Packet &packet) const {
    return (kHandled >> static_cast<unsigned>(packet.type) & 1) & !packet.in_tail;
  }
  // Decodes a whole blob (in memory, or chunk by chunk from where it lives) straight into the
  // analyzer: the decoder's loop is instantiated beside handle(), so the analyzer's dispatch is
  // inlined into it (no call per packet). The fastest way in; the same results as
  // on_packet(). Call finish() afterwards as with it.
  sqtt::DecodeSummary decode(std::span<const std::uint8_t> blob,
                             const sqtt::DecodeOptions &options = {});
  sqtt::DecodeSummary decode(const sqtt::BlobFile &file, const sqtt::DecodeOptions &options,
                             const ProgressSink *progress = nullptr);
  // Call once after the last packet: counts waves that never ended (and closes them).
  void finish();

  const AnalysisAnomalies &anomalies() const { return anomalies_; }
  std::uint64_t waves() const { return waves_; }
  // Waves on the traced unit (CU 0, SIMD 0), and dispatches mapped to a PC (tinygrad's count:
  // instructions and wave-end records, not inserted s_barrier_waits).
  std::uint64_t traced_waves() const { return traced_waves_; }
  std::uint64_t mapped_instructions() const { return mapped_; }

  static constexpr unsigned kSlots = 32;               // wave fields are at most 5 bits wide
  static constexpr std::size_t kMaxPending = 1 << 16;  // per exec queue, against garbage input

private:
  // The packet types handle() acts on (of the TS_DELTA_OR_MARK*s only the realtime markers).
  static constexpr std::uint64_t kHandled = [] {
    using T = sqtt::PacketType;
    std::uint64_t mask = 0;
    for (const T t : {T::Wavestart, T::WavestartRdna4, T::CdnaWavestart, T::Waveend,
                      T::WaveendRdna4, T::CdnaWaveend, T::Inst, T::InstRdna4, T::CdnaInst,
                      T::Valuinst, T::Immediate, T::ImmediateMask, T::Waverdy, T::Aluexec,
                      T::Vmemexec, T::TsDeltaOrMark, T::TsDeltaOrMarkRdna4})
      mask |= std::uint64_t{1} << static_cast<unsigned>(t);
    return mask;
  }();
  static_assert(sqtt::kPacketTypeCount <= 64);
  void handle(sqtt::PacketType type, std::uint64_t raw, std::int64_t time, std::uint64_t index);

  struct OpenWave {
    bool open = false;
    std::int64_t start = 0;
    std::uint64_t start_index = 0;
    std::uint32_t id7 = 0;
  };
  struct StateChange {
    WaveState state;
    std::int64_t time;
  };
  struct Slot {
    bool active = false;  // a traced wave occupies the slot
    bool mapped = false;  // its PC is known
    std::uint64_t pc = 0;
    std::int64_t last_issue = 0;
    std::uint64_t wave_number = 0;
    std::uint64_t waves_started = 0;
    std::uint32_t row_count = 0;
    bool in_barrier = false;
    BarrierSpan barrier;
    // rocprof-trace-decoder's model of the wave (spec §11): its state since each change, the
    // end (first attempt + duration) of its last instruction, a pending RDNA3 barrier.
    std::vector<StateChange> states;
    std::vector<WaveStateSpan> spans;  // the states as spans, built at the wave's end
    std::uint32_t issued = 0;          // instruction packets of the wave
    bool has_previous = false;
    std::int64_t previous_end = 0;
    bool barrier_pending = false;
    std::int64_t barrier_first = 0, barrier_old_end = 0, barrier_duration = -1;
    const ProgramInstruction *skipped_wait = nullptr;  // an s_barrier_wait the walk skipped

    // As constructed, keeping the histories' memory.
    void restart() {
      states.clear();
      spans.clear();
      active = mapped = in_barrier = has_previous = barrier_pending = false;
      pc = wave_number = waves_started = 0;
      last_issue = previous_end = barrier_first = barrier_old_end = 0;
      row_count = issued = 0;
      barrier = {};
      barrier_duration = -1;
      skipped_wait = nullptr;
    }
  };
  struct Pending {
    const OpInfo *op;
    const ProgramInstruction *instruction;  // its PC is the instruction's address (0 without)
    std::uint64_t wave_number;
    std::uint32_t row_index;
    std::uint8_t slot;
  };
  enum Queue { kSalu, kValu, kLds, kVmem, kAlt = 4, kQueues = 8 };
  struct ExecSource;
  struct Direct;  // decode()'s sink

  // The open wave at a hardware slot: array (sa/sh), unit (wgp/cu), SIMD, wave.
  // The hot helpers are inlined into their callers (a call per packet costs as much as their
  // work); they are used in blob_analyzer.cpp only.
  [[gnu::always_inline]] inline OpenWave &open_wave_of(std::uint64_t array, std::uint64_t unit,
                                                       std::uint64_t simd, std::uint64_t wave);
  std::uint8_t add_open_page();
  void wave_start(sqtt::PacketType type, std::uint64_t raw, std::int64_t time, std::uint64_t index);
  void wave_end(sqtt::PacketType type, std::uint64_t raw, std::int64_t time, std::uint64_t index);
  void instruction(sqtt::PacketType type, std::int64_t time, unsigned slot, const OpInfo &op);
  void wave_ready(std::int64_t time, std::uint64_t mask);
  void immediate_mask(std::int64_t time, std::uint64_t mask);
  void alu_exec(std::int64_t time, unsigned src);  // an ALUEXEC's exec event(s)
  [[gnu::always_inline]] inline void add_dispatch(DispatchEvent &event, const OpInfo &op);
  // Queues a dispatch for its exec packet (spec §12.2).
  [[gnu::always_inline]] inline void enqueue(const Pending &pending, int queue);
  [[gnu::always_inline]] inline void dispatch(const DispatchEvent &event);
  void exec(std::int64_t time, const ExecSource &source);
  void marker(sqtt::PacketType type, std::uint64_t raw, std::int64_t time);
  // Walks slot `s` to the instruction this packet issued; nullptr if the PC is unknown.
  [[gnu::always_inline]] inline const ProgramInstruction *walk(Slot &s, std::uint16_t op_flags);
  // The wave-state model (rocprof-trace-decoder's update_state): `state` from `time` on.
  [[gnu::always_inline]] static inline void set_state(Slot &s, WaveState state, std::int64_t time);
  // Relabels [from, to) of the state history as WAIT (an inserted s_barrier_wait).
  static void relabel_wait(Slot &s, std::int64_t from, std::int64_t to);
  // Ends a pending RDNA3 barrier at the wave's next event at `time`.
  [[gnu::always_inline]] static inline void close_barrier(Slot &s, std::int64_t time);
  // Stall and duration of an instruction packet at `time` with `cycles` of execution; updates
  // the model. `immediate`: an IMMEDIATE-like record (s_nop, s_waitcnt, barriers).
  [[gnu::always_inline]] static inline void time_instruction(Slot &s, DispatchEvent &e,
                                                             std::int64_t cycles, bool immediate);
  // Reports the s_barrier_wait the walk skipped before `next`, from `from` (the end of the
  // instruction before it).
  void insert_barrier_wait(Slot &s, DispatchEvent &next, std::int64_t from);

  const ProgramMap *program_ = nullptr;
  unsigned se_ = 0;
  AnalysisSinks sinks_;
  const OpTables &ops_;
  // Some consumer takes dispatch, exec and barrier events (and so the timing model runs), wave
  // lifetimes, clock points.
  bool events_ = false, wave_events_ = false, clock_events_ = false;
  // Open waves by hardware location (4096 keys: array, unit, SIMD, slot), in pages of one
  // (array, unit, SIMD pair)'s 64 slots allocated when a wave first uses them, so a blob costs
  // what its waves touch, not the whole table (blobs are a few KB).
  static constexpr std::size_t kOpenKeys = 4096, kPageKeys = 64;
  using OpenPage = std::array<OpenWave, kPageKeys>;
  std::array<std::uint8_t, kOpenKeys / kPageKeys> open_page_{};  // page index + 1, 0: none yet
  std::vector<OpenPage> open_pages_;
  std::uint64_t open_waves_ = 0;  // started and not ended
  void close_open_waves();
  std::array<Slot, kSlots> slots_{};
  // A FIFO of dispatches waiting for their exec packet: a ring of a power-of-two size that
  // doubles when full; kept (emptied) from blob to blob.
  struct PendingQueue {
    std::vector<Pending> ring;
    std::uint64_t head = 0, tail = 0;  // items read and written
    bool empty() const { return head == tail; }
    std::uint64_t size() const { return tail - head; }
    void push_back(const Pending &p) {
      if (tail - head == ring.size()) grow();
      ring[tail++ & (ring.size() - 1)] = p;
    }
    const Pending &front() const { return ring[head & (ring.size() - 1)]; }
    void pop_front() { ++head; }
    void clear() { head = tail = 0; }
    void grow();
  };
  std::array<PendingQueue, kQueues> pending_;
  bool have_marker_ = false;
  std::int64_t marker_time_ = 0;
  std::uint64_t marker_realtime_ = 0;
  std::uint64_t waves_ = 0, traced_waves_ = 0, mapped_ = 0;
  AnalysisAnomalies anomalies_;
};

}  // namespace wavescope::trace::timeline
