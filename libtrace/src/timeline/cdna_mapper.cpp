#include "wavescope/trace/timeline/cdna_mapper.hpp"

#include <algorithm>

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

namespace {

// rocprof-trace-decoder's issue phase of a category's unit, in cycles past the SIMD's slot in the
// 4-cycle issue round: a CDNA_INST that lags its issue by no more than the phase's whole steps
// adds nothing to the instruction's 4 cycles.
int unit_phase(std::string_view op) {
  if (op.starts_with("SMEM") || op.starts_with("SALU")) return 5;
  if (op.starts_with("VALU")) return 2;
  if (op == "LDS" || op == "JUMP" || op == "NEXT" || op == "OTHER_MSG") return 1;
  return 0;  // VMEM, FLAT, PC
}

// An instruction is over when the wave issues its next one (but lasts 4 cycles at least).
void cut_at(CdnaMappedInstruction &prev, std::int64_t issue) {
  if (issue >= prev.start + prev.duration) return;
  prev.duration = std::max<std::int64_t>(issue - prev.start, 4);
  prev.stall = std::min(prev.stall, prev.duration);
}

}  // namespace

void CdnaMapper::on_packet(const sqtt::Packet &p) {
  using sqtt::PacketType;
  if (p.in_tail) return;
  if (p.type == PacketType::CdnaIssue) {
    // Per wave of the SIMD, 2 bits: 1 stall, 2 instruction, 3 immediate (0: nothing).
    const unsigned simd = (p.raw >> 5) & 3;
    for (unsigned w = 0; w < 10; ++w)
      if (const unsigned status = (p.raw >> (8 + 2 * w)) & 3) {
        Slot &s = slots_[(simd * 16 + w) % slots_.size()];
        if (s.active) issue(s, status, p.time);
      }
    return;
  }
  if (p.type == PacketType::CdnaWavestart || p.type == PacketType::CdnaWaveend) {
    // Instruction tokens come from CU 0 of shader array 0 (tinygrad's selection).
    if (p.field("cu") != 0 || p.field("sh") != 0) return;
    const unsigned simd = static_cast<unsigned>(p.field("simd")),
                   wave = static_cast<unsigned>(p.field("wave"));
    Slot &s = slots_[(simd * 16 + wave) % slots_.size()];
    if (p.type == PacketType::CdnaWavestart) {
      if (s.active) end_wave(s, p.time);  // a start on a busy slot: the old wave is over
      s = Slot{};
      s.active = true;
      s.simd = simd;
      s.slot = wave;
      s.pc = program_.entry();
      s.start = s.last_sent = p.time;
      set_state(s, WaveState::Idle, p.time);
      ++report_.waves;
    } else if (s.active) {
      if (!s.lost) ++report_.waves_complete;
      end_wave(s, p.time);
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
  instruction(s, p, sqtt::inst_op_name(p.type, p.field("op")));
}

void CdnaMapper::issue(Slot &s, unsigned status, std::int64_t time) {
  if (status == 1) {  // the wave began to stall
    ++report_.stalls;
    s.stall_starts.push_back(time);
    set_state(s, WaveState::Stall, time);
    return;
  }
  Record r;
  r.inst.simd = s.simd;
  r.inst.slot = s.slot;
  r.inst.time = r.inst.start = r.inst.packet_time = time;
  if (status == 2) {  // an instruction: its CDNA_INST follows
    r.pending = true;
    s.issued.push_back(s.records.size());
    s.records.push_back(r);
    s.issued_any = true;
    set_state(s, WaveState::Exec, time);
    return;
  }
  // An immediate: it waited since the previous instruction ended and takes 4 cycles.
  std::int64_t first = time;
  if (!s.records.empty() && !s.records.back().pending) {
    auto &prev = s.records.back().inst;
    cut_at(prev, time);
    first = std::min(prev.start + prev.duration, time);
  }
  const std::int64_t cycles = 4 + std::max<std::int64_t>(0, time - first);
  r.immediate = true;
  r.inst.op = "IMMED";
  r.inst.start = first;
  r.inst.stall = r.inst.duration = cycles;
  s.records.push_back(r);
  s.issued_any = true;
  set_state(s, WaveState::Wait, std::max(first, s.states.back().time));
  set_state(s, WaveState::Exec, first + cycles);
  report_ready(s);
}

void CdnaMapper::instruction(Slot &s, const sqtt::Packet &p, std::string_view op) {
  std::size_t k;
  if (s.issued_head < s.issued.size()) {
    k = s.issued[s.issued_head++];
    if (s.issued_head == s.issued.size()) s.issued.clear(), s.issued_head = 0;
  } else {  // no issue announced it: time it at the packet
    ++report_.without_issue;
    Record r;
    r.inst.simd = s.simd;
    r.inst.slot = s.slot;
    r.inst.time = r.inst.start = p.time;
    k = s.records.size();
    s.records.push_back(r);
    s.issued_any = true;
  }
  Record &r = s.records[k];
  auto &inst = r.inst;
  const std::int64_t issued = inst.time;
  // rocprof's phase counter moves on whenever an issue overlaps the instruction before the last.
  if (s.records.size() >= 2) {
    const auto &before = s.records[s.records.size() - 2].inst;
    if (issued < before.start + before.duration) ++phase_;
  }
  if (k > 0) cut_at(s.records[k - 1].inst, issued);
  const std::int64_t phase = static_cast<std::int64_t>((phase_ + inst.simd) % 4) + unit_phase(op);
  std::int64_t duration = 4 + std::max<std::int64_t>(0, p.time - issued - 4 * (phase / 4));
  inst.stall = 0;
  if (s.stall_head < s.stall_starts.size() && issued > s.stall_starts[s.stall_head]) {
    // Stalled: from the latest stall start before the issue, not before the previous one ended.
    const std::int64_t previous_end =
        k > 0 ? s.records[k - 1].inst.start + s.records[k - 1].inst.duration : 0;
    std::int64_t from = issued;
    while (s.stall_head < s.stall_starts.size() && issued > s.stall_starts[s.stall_head])
      from = std::max(s.stall_starts[s.stall_head++], previous_end);
    if (s.stall_head == s.stall_starts.size()) s.stall_starts.clear(), s.stall_head = 0;
    inst.stall = std::max<std::int64_t>(issued - from, 0);
    duration = std::max<std::int64_t>(issued + duration - from, 4);
    inst.start = from;
  }
  inst.duration = duration;
  inst.packet_time = p.time;
  inst.op = op;
  r.pending = false;
  if (s.lost) {
    ++report_.lost;
  } else if (const ProgramInstruction *matched = walk(s, op, k, p)) {
    r.placed = true;
    inst.pc = matched->address;
    inst.instruction = matched;
    ++report_.mapped;
  }
  report_ready(s);
}

void CdnaMapper::send(Slot &s, const Record &r) {
  if (!r.placed) return;
  CdnaMappedInstruction inst = r.inst;
  inst.issue_gap = inst.time - s.last_sent;
  s.last_sent = inst.time;
  ++s.reported;
  if (sink_) sink_(inst);
}

void CdnaMapper::report_ready(Slot &s) {
  while (s.sent + 1 < s.records.size()) {
    const Record &r = s.records[s.sent], &next = s.records[s.sent + 1];
    if (r.pending || next.pending) break;  // its CDNA_INST, or the next one's, may still cut it
    if (r.immediate && !r.placed && !s.lost && s.sent >= s.next_immediate) break;  // not walked
    send(s, r);
    ++s.sent;
  }
  constexpr std::size_t kCompactAt = 1024;
  if (s.sent < kCompactAt) return;
  // Keep the last reported record (the phase counter reads the one before the last).
  const std::size_t n = s.sent - 1;
  s.records.erase(s.records.begin(), s.records.begin() + static_cast<std::ptrdiff_t>(n));
  s.next_immediate = std::max(s.next_immediate, s.sent) - n;  // reported ones: walked past
  s.issued.erase(s.issued.begin(), s.issued.begin() + static_cast<std::ptrdiff_t>(s.issued_head));
  s.issued_head = 0;
  for (auto &i : s.issued) i -= n;  // pending records are never reported yet: i >= n
  s.sent -= n;
}

const ProgramInstruction *CdnaMapper::walk(Slot &s, std::string_view op, std::size_t upto,
                                           const sqtt::Packet &p) {
  const ProgramInstruction *inst = program_.at(s.pc);
  while (inst && issues_no_packet(*inst) && !cdna_op_matches(op, *inst)) {
    // The next immediate issued before this instruction is the one at this PC.
    while (s.next_immediate < upto && !s.records[s.next_immediate].immediate) ++s.next_immediate;
    if (s.next_immediate < upto) {
      Record &im = s.records[s.next_immediate++];
      im.placed = true;
      im.inst.pc = inst->address;
      im.inst.instruction = inst;
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
          fmt::format("packet {} (simd {}, wave {}, {}) at pc {:#x}: {}", p.index, s.simd, s.slot,
                      op, s.pc, inst ? inst->text : std::string("outside .text"));
    return nullptr;
  }
  for (; s.next_immediate < upto; ++s.next_immediate)
    if (s.records[s.next_immediate].immediate) ++report_.unplaced_immediates;
  s.next_immediate = upto + 1;
  s.pc += inst->size;
  if (op == "JUMP") s.pc += static_cast<std::uint64_t>(std::int64_t{inst->simm16} * 4);
  return inst;
}

void CdnaMapper::set_state(Slot &s, WaveState state, std::int64_t time) {
  if (s.states.empty() || time > s.states.back().time)
    s.states.push_back({state, time});
  else
    s.states.back().state = state;  // a change at or before the last one takes over from it
}

void CdnaMapper::end_wave(Slot &s, std::int64_t end) {
  for (std::size_t i = s.next_immediate; i < s.records.size(); ++i)
    if (s.records[i].immediate && !s.records[i].placed && !s.lost) ++report_.unplaced_immediates;
  CdnaMappedWave wave;
  wave.simd = s.simd;
  wave.slot = s.slot;
  wave.start = s.start;
  wave.end = end;
  for (; s.sent < s.records.size(); ++s.sent) send(s, s.records[s.sent]);
  wave.instructions = s.reported;
  if (wave.instructions) ++report_.waves_mapped;
  // The state timeline, each change to the next (or the end), equal neighbours merged; only for
  // a wave that issued something (rocprof reports none for the others).
  if (s.issued_any)
    for (std::size_t i = 0; i < s.states.size(); ++i) {
      const std::int64_t from = std::max(s.states[i].time, s.start);
      const std::int64_t until = i + 1 < s.states.size() ? s.states[i + 1].time : end;
      const std::int64_t d = std::min(until, end) - from;
      if (d <= 0) continue;
      if (!wave.states.empty() && wave.states.back().state == s.states[i].state)
        wave.states.back().duration += d;
      else
        wave.states.push_back({s.states[i].state, d});
    }
  if (wave_sink_) wave_sink_(wave);
  s = Slot{};
}

void CdnaMapper::finish() {
  for (auto &s : slots_)
    if (s.active) end_wave(s, s.states.empty() ? s.start : s.states.back().time);
}

}  // namespace wavescope::trace::timeline
