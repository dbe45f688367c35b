#pragma once
// What the blob analyzer needs of each dispatch it reports, precomputed once per packet type and
// op value: the VIZ name, the execution queue it waits in, its cycle count and the categories
// the rules test (spec §9.1, §12.2; rocprof-trace-decoder's immediates). The names are the
// category names of the op tables (or "0x4a" for values outside them), so everything here is
// derived from them once instead of parsed per packet.

#include <array>
#include <cstdint>
#include <string_view>

#include "wavescope/trace/sqtt/packet_types.hpp"

namespace wavescope::trace::timeline {

struct OpInfo {
  std::string_view name;  // static storage
  // The exec queue a dispatch of this op waits in for its ALUEXEC/VMEMEXEC (0 SALU, 1 VALU,
  // 2 LDS, 3 VMEM, +4 for the OTHER_* ops of another SIMD), -1 for none.
  std::int8_t queue = -1;
  std::uint16_t flags = 0;
  std::int64_t cycles = 1;  // the trailing number of the name ("VALUB_16" -> 16), else 1

  // An instruction of a wave on the traced SIMD: the PC walk follows it (not OTHER_*, not CDNA).
  static constexpr std::uint16_t kWalks = 1 << 0;
  static constexpr std::uint16_t kJump = 1 << 1;         // INST JUMP or JUMP_NO: a branch's packet
  static constexpr std::uint16_t kJumpTaken = 1 << 2;    // INST JUMP
  static constexpr std::uint16_t kBarrierWait = 1 << 3;  // INST BARRIER_WAIT (RDNA4 op 0x13)
  // rocprof-trace-decoder's immediates: IMMEDIATE packets and the barrier ops (their stall is
  // the wait since the previous instruction ended).
  static constexpr std::uint16_t kImmediate = 1 << 4;
  static constexpr std::uint16_t kRdna3Barrier = 1 << 5;    // "BARRIER": lasts to the next event
  static constexpr std::uint16_t kOpensBarrier = 1 << 6;    // BARRIER or BARRIER_SIGNAL
  static constexpr std::uint16_t kWmma = 1 << 7;            // WMMA*: its exec event is a WMMA one
  static constexpr std::uint16_t kWmmaValu = 1 << 8;        // WMMA_VALU*: ... on the VALU row
  static constexpr std::uint16_t kValut = 1 << 9;           // VALUT*: its exec event is a TFU one
  static constexpr std::uint16_t kSkipsNoPacket = 1 << 10;  // the walk skips no-packet ops first
  static constexpr std::uint16_t kOtherSimd = 1 << 11;      // OTHER_*: a wave on another SIMD

  bool has(std::uint16_t flag) const { return flags & flag; }
};

struct OpTables {
  // By op value (the field is at most 8 bits wide) of INST, INST_RDNA4 and CDNA_INST.
  std::array<OpInfo, 256> inst, inst_rdna4, cdna_inst;
  OpInfo valuinst, wmma_valu_16, wmma_valu_32;  // VALUINST, renamed when it is a v_wmma
  OpInfo immediate, immediate_mask;             // IMMEDIATE, IMMEDIATE_MASK (same name)
  OpInfo waverdy, waveend, waveend_rdna4, cdna_waveend;
  OpInfo barrier_wait;  // the RDNA4 s_barrier_wait the analyzer inserts (no packet)

  // The table of an INST type (INST, INST_RDNA4, CDNA_INST).
  const std::array<OpInfo, 256> &of(sqtt::PacketType inst_type) const {
    return inst_type == sqtt::PacketType::Inst        ? inst
           : inst_type == sqtt::PacketType::InstRdna4 ? inst_rdna4
                                                      : cdna_inst;
  }
};

// Built once (on first use, before the first analysis).
const OpTables &op_tables();

}  // namespace wavescope::trace::timeline
