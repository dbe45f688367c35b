#pragma once
// An attempt at what tinygrad does not do: mapping CDNA (gfx9) instruction packets to PCs.
//
// CDNA_INST packets carry (wave, simd, op category) but no PC, like RDNA's INST. The mapper walks
// each (simd, wave) slot of the traced CU from the kernel entry, as spec §10.2 does for RDNA:
// instructions that produce no packet (s_waitcnt, s_nop, ...) are skipped, a JUMP takes the
// branch, and every other packet must match the category of the instruction at the PC. The
// category rules were read off the gfx950 corpus and are unverified beyond it: VALU_32/VALU_64
// and SALU_32/SALU_64 name the instruction's encoding size (4 or 8 bytes), not its data width;
// s_endpgm issues an OTHER_MSG; NEXT is a branch not taken; JUMP (absent from the corpus) is
// taken to be a taken branch, as on RDNA.
// The walk stops at the first packet that does not fit, and the report says how far it got.
//
// The mapper also times the instructions as AMD's rocprof-trace-decoder does on gfx9
// (docs/sqtt-analysis.md, "CDNA instruction timing"). A CDNA_ISSUE reports, per wave of a SIMD, 1
// (the wave began to stall), 2 (it issued an instruction; the wave's next CDNA_INST, first in first
// out, names its category) or 3 (it issued an immediate, an instruction without a CDNA_INST). An
// instruction's `time` is its issue; the wave first tried to issue it at the latest stall start
// before that (not before the previous instruction's end): stall = time - that start. Its duration
// runs from that start: 4 cycles, plus the CDNA_INST's lag behind the issue beyond what the
// unit's pipeline phase explains, cut back to the next instruction's issue (at least 4). An
// immediate waits from the previous instruction's end (or its issue, if earlier) and takes 4
// cycles more; rocprof counts all of it as stall (stall = duration). The same statuses give the
// wave its IDLE/EXEC/STALL/WAIT state timeline. Instructions are reported in issue order once
// their figures are final (when the wave's next instruction is resolved, or at the wave's end).

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"
#include "wavescope/trace/timeline/events.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::timeline {

struct CdnaMappedInstruction {
  unsigned simd = 0, slot = 0;
  std::uint64_t pc = 0;
  const ProgramInstruction *instruction = nullptr;
  std::int64_t time = 0;       // the issue: the CDNA_ISSUE that reported it (status 2 or 3)
  std::int64_t issue_gap = 0;  // since the wave's previous mapped instruction's issue, or its start
  std::string_view op;         // the packet's category; IMMED for an immediate
  // rocprof-trace-decoder's figures: the wave first tried to issue it at `start`, waited `stall`
  // cycles, and `duration` cycles after `start` the instruction was done (stall <= duration).
  std::int64_t start = 0;
  std::int64_t stall = 0;
  std::int64_t duration = 0;
  std::int64_t packet_time = 0;  // the CDNA_INST's time (an immediate's: its issue)
};

// A wave on the traced CU, reported at its CDNA_WAVEEND after its instructions.
struct CdnaMappedWave {
  unsigned simd = 0, slot = 0;
  std::int64_t start = 0, end = 0;
  std::uint64_t instructions = 0;     // mapped instructions reported for it
  std::vector<WaveStateSpan> states;  // its state timeline from start to end (issued waves)
};

struct CdnaMappingReport {
  std::uint64_t inst_packets = 0;   // CDNA_INST packets of waves the walk followed
  std::uint64_t mapped = 0;         // of those, matched to an instruction
  std::uint64_t lost = 0;           // packets after a wave's walk lost sync (not mapped)
  std::uint64_t without_wave = 0;   // packets for a slot with no started wave
  std::uint64_t without_issue = 0;  // CDNA_INSTs no issue status 2 announced (timed at the packet)
  std::uint64_t immediates = 0;     // s_waitcnt/s_nop/... mapped from CDNA_ISSUE immediates
  std::uint64_t unplaced_immediates = 0;  // immediates the walk found no instruction for
  std::uint64_t stalls = 0;               // stall statuses of followed waves
  std::uint64_t waves = 0;                // waves whose walk started
  std::uint64_t waves_complete = 0;       // waves mapped without a mismatch up to their end
  std::uint64_t waves_mapped = 0;         // waves with at least one mapped instruction (streams)
  std::string first_mismatch;             // where the first walk lost sync, if any
};

class CdnaMapper {
public:
  using InstructionSink = std::function<void(const CdnaMappedInstruction &)>;
  using WaveSink = std::function<void(const CdnaMappedWave &)>;
  // `on_instruction` receives every mapped instruction, `on_wave` every traced wave, at its end.
  explicit CdnaMapper(const ProgramMap &program, InstructionSink on_instruction = {},
                      WaveSink on_wave = {})
      : program_(program), sink_(std::move(on_instruction)), wave_sink_(std::move(on_wave)) {}
  void on_packet(const sqtt::Packet &packet);
  // Reports the instructions of waves that never ended (call after the last packet).
  void finish();
  const CdnaMappingReport &report() const { return report_; }

private:
  struct Record {
    CdnaMappedInstruction inst;
    bool immediate = false;
    bool pending = false;  // an issue whose CDNA_INST has not come
    bool placed = false;   // the walk gave it its instruction
  };
  struct StateChange {
    WaveState state;
    std::int64_t time;
  };
  struct Slot {
    bool active = false, lost = false;
    unsigned simd = 0, slot = 0;
    std::uint64_t pc = 0;
    std::int64_t start = 0;
    std::vector<Record> records;      // the wave's instructions in issue order
    std::vector<std::size_t> issued;  // records waiting for their CDNA_INST, oldest first
    std::size_t issued_head = 0;
    std::size_t next_immediate = 0;          // the first record the walk has not passed
    std::vector<std::int64_t> stall_starts;  // stall statuses not yet given to an instruction
    std::size_t stall_head = 0;
    std::vector<StateChange> states;
    bool issued_any = false;     // the wave issued something (it has a state timeline)
    std::size_t sent = 0;        // records before this one were reported (or not mapped)
    std::int64_t last_sent = 0;  // the issue of the wave's last reported instruction, or its start
    std::uint64_t reported = 0;  // mapped instructions reported
  };
  void issue(Slot &s, unsigned status, std::int64_t time);
  void instruction(Slot &s, const sqtt::Packet &p, std::string_view op);
  // Walks `s` to the instruction of category `op` (placing the immediates issued before record
  // `upto` on the no-packet instructions it passes); nullptr if it does not fit.
  const ProgramInstruction *walk(Slot &s, std::string_view op, std::size_t upto,
                                 const sqtt::Packet &p);
  // Reports the records whose figures are final (the next record is resolved), and drops
  // reported ones, so a wave costs memory for its unresolved instructions only.
  void report_ready(Slot &s);
  void send(Slot &s, const Record &r);
  void end_wave(Slot &s, std::int64_t end);
  static void set_state(Slot &s, WaveState state, std::int64_t time);

  const ProgramMap &program_;
  InstructionSink sink_;
  WaveSink wave_sink_;
  std::array<Slot, 64> slots_{};  // simd * 16 + wave
  std::uint64_t phase_ = 0;       // rocprof's issue-phase counter (per blob)
  CdnaMappingReport report_;
};

// True if an instruction produces a CDNA_INST packet of category `op` (see the header comment).
bool cdna_op_matches(std::string_view op, const ProgramInstruction &inst);

}  // namespace wavescope::trace::timeline
