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

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"
#include "wavescope/trace/timeline/program_map.hpp"

namespace wavescope::trace::timeline {

struct CdnaMappedInstruction {
  unsigned simd = 0, slot = 0;
  std::uint64_t pc = 0;
  const ProgramInstruction *instruction = nullptr;
  std::int64_t time = 0;
  std::int64_t issue_gap = 0;  // since the wave's previous mapped packet, or its start
  std::string_view op;         // the packet's category
};

struct CdnaMappingReport {
  std::uint64_t inst_packets = 0;    // CDNA_INST packets of waves the walk followed
  std::uint64_t mapped = 0;          // of those, matched to an instruction
  std::uint64_t lost = 0;            // packets after a wave's walk lost sync (not mapped)
  std::uint64_t without_wave = 0;    // packets for a slot with no started wave
  std::uint64_t immediates = 0;      // s_waitcnt/s_nop/... mapped from CDNA_ISSUE immediates
  std::uint64_t waves = 0;           // waves whose walk started
  std::uint64_t waves_complete = 0;  // waves mapped without a mismatch up to their end
  std::uint64_t waves_mapped = 0;    // waves with at least one mapped instruction (streams)
  std::string first_mismatch;        // where the first walk lost sync, if any
};

class CdnaMapper {
public:
  using InstructionSink = std::function<void(const CdnaMappedInstruction &)>;
  // `on_instruction` receives every mapped instruction as it is found.
  explicit CdnaMapper(const ProgramMap &program, InstructionSink on_instruction = {})
      : program_(program), sink_(std::move(on_instruction)) {}
  void on_packet(const sqtt::Packet &packet);
  const CdnaMappingReport &report() const { return report_; }

private:
  struct Slot {
    bool active = false, lost = false;
    std::uint64_t pc = 0;
    std::int64_t last = 0;
    std::deque<std::int64_t> immediates;  // CDNA_ISSUE immediates not yet matched
    bool mapped_any = false;              // the wave has a stream
  };
  void count_stream(Slot &slot) {
    if (!slot.mapped_any) ++report_.waves_mapped;
    slot.mapped_any = true;
  }
  const ProgramMap &program_;
  InstructionSink sink_;
  std::array<Slot, 64> slots_{};  // simd * 16 + wave
  CdnaMappingReport report_;
};

// True if an instruction produces a CDNA_INST packet of category `op` (see the header comment).
bool cdna_op_matches(std::string_view op, const ProgramInstruction &inst);

}  // namespace wavescope::trace::timeline
