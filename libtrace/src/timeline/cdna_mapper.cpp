#include "wavescope/trace/timeline/cdna_mapper.hpp"

#include <fmt/format.h>

namespace wavescope::trace::timeline {
namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Instructions that issue without an instruction packet.
bool issues_no_packet(const ProgramInstruction &inst) {
  const std::string_view m = inst.mnemonic;
  return starts(m, "s_waitcnt") || m == "s_nop" || m == "s_setprio" || m == "s_sleep" ||
         starts(m, "s_set_gpr_idx");
}

bool is_smem(std::string_view m) {
  return starts(m, "s_load") || starts(m, "s_buffer_") || starts(m, "s_scratch_") ||
         starts(m, "s_store") || starts(m, "s_dcache") || starts(m, "s_memtime") ||
         starts(m, "s_memrealtime") || starts(m, "s_atc_probe");
}

}  // namespace

bool cdna_op_matches(std::string_view op, const ProgramInstruction &inst) {
  const std::string_view m = inst.mnemonic;
  const bool salu = starts(m, "s_") && !is_smem(m) && !inst.is_branch && !issues_no_packet(inst) &&
                    !starts(m, "s_sendmsg") && !starts(m, "s_barrier");
  const bool mai = starts(m, "v_mfma") || starts(m, "v_smfmac");
  if (op == "SMEM_RD") return is_smem(m) && !starts(m, "s_store") && !starts(m, "s_scratch_store");
  if (op == "SMEM_WR") return starts(m, "s_store") || starts(m, "s_scratch_store");
  if (op == "SALU_32") return salu && inst.size == 4;
  if (op == "SALU_64") return salu && inst.size == 8;
  if (op == "VALU_32") return starts(m, "v_") && !mai && inst.size == 4;
  if (op == "VALU_64") return starts(m, "v_") && !mai && inst.size == 8;
  if (op == "VALU_MAI") return mai;
  if (op == "LDS") return starts(m, "ds_");
  if (op == "FLAT_RD")
    return starts(m, "global_load") || starts(m, "flat_load") || starts(m, "scratch_load");
  if (op == "FLAT_WR")
    return starts(m, "global_store") || starts(m, "flat_store") || starts(m, "scratch_store") ||
           starts(m, "global_atomic") || starts(m, "flat_atomic");
  if (op == "VMEM_RD") return starts(m, "buffer_load") || starts(m, "tbuffer_load");
  if (op == "VMEM_WR")
    return starts(m, "buffer_store") || starts(m, "tbuffer_store") || starts(m, "buffer_atomic");
  if (op == "JUMP" || op == "NEXT") return inst.is_branch;
  // s_endpgm reports as a message (the end-of-program message), as in every corpus wave.
  if (op == "OTHER_MSG") return m == "s_endpgm" || starts(m, "s_sendmsg") || starts(m, "s_barrier");
  if (op == "PC") return starts(m, "s_setpc") || starts(m, "s_swappc") || starts(m, "s_getpc");
  return false;
}

void CdnaMapper::on_packet(const sqtt::Packet &p) {
  using sqtt::PacketType;
  if (p.in_tail) return;
  if (p.type == PacketType::CdnaIssue) {
    // Per wave of the SIMD, 2 bits (rocprof-trace-decoder: 1 stall, 2 instruction, 3 immediate).
    // An immediate is an instruction without a CDNA_INST (s_waitcnt, s_nop, ...): it maps the
    // next such instruction the walk meets, at the issue's time.
    const unsigned simd = (p.raw >> 5) & 3;
    for (unsigned w = 0; w < 10; ++w)
      if (((p.raw >> (8 + 2 * w)) & 3) == 3) {
        Slot &s = slots_[(simd * 16 + w) % slots_.size()];
        if (s.active && !s.lost) s.immediates.push_back(p.time);
      }
    return;
  }
  if (p.type == PacketType::CdnaWavestart || p.type == PacketType::CdnaWaveend) {
    if (p.field("cu") != 0) return;  // instruction tokens come from CU 0 (tinygrad's selection)
    Slot &s = slots_[(p.field("simd") * 16 + p.field("wave")) % slots_.size()];
    if (p.type == PacketType::CdnaWavestart) {
      s = {true, false, program_.entry(), p.time, {}, false};
      ++report_.waves;
    } else if (s.active) {
      if (!s.lost) ++report_.waves_complete;
      s.active = false;
    }
    return;
  }
  if (p.type != PacketType::CdnaInst) return;
  const unsigned simd = static_cast<unsigned>(p.field("simd")),
                 wave = static_cast<unsigned>(p.field("wave"));
  Slot &s = slots_[(simd * 16 + wave) % slots_.size()];
  if (!s.active) {
    ++report_.without_wave;
    return;
  }
  ++report_.inst_packets;
  if (s.lost) {
    ++report_.lost;
    return;
  }
  const std::string_view op = sqtt::inst_op_name(p.type, p.field("op"));
  const ProgramInstruction *inst = program_.at(s.pc);
  while (inst && issues_no_packet(*inst) && !cdna_op_matches(op, *inst)) {
    if (!s.immediates.empty()) {  // an immediate issue came for it
      const std::int64_t t = s.immediates.front();
      s.immediates.pop_front();
      if (sink_) sink_({simd, wave, s.pc, inst, t, t - s.last, "IMMED"});
      count_stream(s);
      s.last = t;
      ++report_.immediates;
    }
    s.pc += inst->size;
    inst = program_.at(s.pc);
  }
  if (!inst || !cdna_op_matches(op, *inst)) {
    s.lost = true;
    ++report_.lost;
    if (report_.first_mismatch.empty())
      report_.first_mismatch =
          fmt::format("packet {} (simd {}, wave {}, {}) at pc {:#x}: {}", p.index, simd, wave, op,
                      s.pc, inst ? inst->text : std::string("outside .text"));
    return;
  }
  if (sink_) sink_({simd, wave, s.pc, inst, p.time, p.time - s.last, op});
  count_stream(s);
  s.last = p.time;
  ++report_.mapped;
  s.pc += inst->size;
  if (op == "JUMP") s.pc += static_cast<std::uint64_t>(std::int64_t{inst->simm16} * 4);
}

}  // namespace wavescope::trace::timeline
