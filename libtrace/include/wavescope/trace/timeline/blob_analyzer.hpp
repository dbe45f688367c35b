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
#include <deque>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"
#include "wavescope/trace/timeline/events.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::timeline {

class BlobAnalyzer {
public:
  // `program` may be null (no PC mapping); `se` is recorded in every Wave.
  BlobAnalyzer(const ProgramMap *program, unsigned se, AnalysisObserver &observer);

  // Feed every packet of the blob in order (tail packets are ignored).
  void on_packet(const sqtt::Packet &packet);
  // Call once after the last packet: counts waves that never ended.
  void finish();

  const AnalysisAnomalies &anomalies() const { return anomalies_; }
  std::uint64_t waves() const { return waves_; }

  static constexpr unsigned kSlots = 32;               // wave fields are at most 5 bits wide
  static constexpr std::size_t kMaxPending = 1 << 16;  // per exec queue, against garbage input

private:
  struct OpenWave {
    bool open = false;
    std::int64_t start = 0;
    std::uint64_t start_index = 0;
    std::uint32_t id7 = 0;
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
  };
  struct Pending {
    unsigned slot;
    std::uint32_t row_index;
    std::uint64_t wave_number;
    std::string_view op_type;
    const ProgramInstruction *instruction;
    std::uint64_t pc;
  };
  enum Queue { kSalu, kValu, kLds, kVmem, kAlt = 4, kQueues = 8 };

  OpenWave &open_wave_of(const sqtt::Packet &p);  // keyed by the wave's hardware slot
  void wave_start(const sqtt::Packet &p);
  void wave_end(const sqtt::Packet &p);
  void instruction(const sqtt::Packet &p, unsigned slot, std::string_view name, bool walk);
  void add_dispatch(DispatchEvent &event);
  void exec(const sqtt::Packet &p, std::string_view source, bool alu);
  void marker(const sqtt::Packet &p);
  // Walks slot `s` to the instruction this packet issued; nullptr if the PC is unknown.
  const ProgramInstruction *walk(Slot &s, bool is_jump_packet, bool is_jump_taken,
                                 bool skip_no_packet);

  const ProgramMap *program_;
  unsigned se_;
  AnalysisObserver &observer_;
  // Open waves by hardware location (4096 keys: array, unit, SIMD, slot), in pages of one
  // (array, unit, SIMD pair)'s 64 slots allocated when a wave first uses them, so a blob costs
  // what its waves touch, not the whole table (blobs are a few KB).
  static constexpr std::size_t kOpenKeys = 4096, kPageKeys = 64;
  using OpenPage = std::array<OpenWave, kPageKeys>;
  std::array<std::uint8_t, kOpenKeys / kPageKeys> open_page_{};  // page index + 1, 0: none yet
  std::vector<OpenPage> open_pages_;
  std::array<Slot, kSlots> slots_{};
  std::array<std::deque<Pending>, kQueues> pending_;
  bool have_marker_ = false;
  std::int64_t marker_time_ = 0;
  std::uint64_t marker_realtime_ = 0;
  std::uint64_t waves_ = 0;
  AnalysisAnomalies anomalies_;
};

}  // namespace wavescope::trace::timeline
