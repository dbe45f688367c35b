#include "op_info.hpp"

#include <string>

#include <fmt/format.h>

namespace wavescope::trace::timeline {
namespace {

using sqtt::PacketType;

// The queue an instruction category is executed from (VIZ's dispatch_to_exec), or -1.
int exec_queue(std::string_view name) {
  if (name.starts_with("OTHER_")) name.remove_prefix(6);
  const auto prefix = name.substr(0, name.find('_'));
  if (prefix == "WMMA" || prefix == "VALU" || prefix == "VALU1" || prefix == "VALUT" ||
      prefix == "VALUB" || prefix == "VALUINST" || prefix == "VINTERP")
    return 1;
  if (prefix == "SGMEM" || prefix == "FLAT" || prefix == "VMEM") return 3;
  if (prefix == "LDS") return 2;
  if (prefix == "SALU" || prefix == "SMEM") return 0;
  return -1;
}

// The cycle count at the end of a category name ("VALUB_16" -> 16), 1 if there is none.
std::int64_t trailing_cycles(std::string_view name) {
  const auto underscore = name.rfind('_');
  if (underscore == std::string_view::npos || underscore + 1 == name.size()) return 1;
  std::int64_t value = 0;
  for (char c : name.substr(underscore + 1)) {
    if (c < '0' || c > '9') return 1;
    value = value * 10 + (c - '0');
    if (value > 1'000'000) return 1;
  }
  return value;
}

// The facts of a dispatch named `name` from a packet of type `type`.
OpInfo make(PacketType type, std::string_view name) {
  OpInfo o;
  o.name = name;
  o.cycles = trailing_cycles(name);
  const bool inst_packet = type == PacketType::Inst || type == PacketType::InstRdna4;
  const bool other = name.starts_with("OTHER_");
  std::uint16_t f = 0;
  if (type != PacketType::CdnaInst && !(inst_packet && other)) f |= OpInfo::kWalks;
  if (inst_packet && other) f |= OpInfo::kOtherSimd;
  if (inst_packet && (name == "JUMP" || name == "JUMP_NO")) f |= OpInfo::kJump;
  if (inst_packet && name == "JUMP") f |= OpInfo::kJumpTaken;
  if (inst_packet && name == "BARRIER_WAIT") f |= OpInfo::kBarrierWait;
  if (type == PacketType::Immediate || type == PacketType::ImmediateMask || name == "BARRIER" ||
      name == "BARRIER_WAIT")
    f |= OpInfo::kImmediate;
  if (name == "BARRIER") f |= OpInfo::kRdna3Barrier;
  if (name == "BARRIER" || name == "BARRIER_SIGNAL") f |= OpInfo::kOpensBarrier;
  if (name.starts_with("WMMA")) f |= OpInfo::kWmma;
  if (name.starts_with("WMMA_VALU")) f |= OpInfo::kWmmaValu;
  if (name.starts_with("VALUT")) f |= OpInfo::kValut;
  if (type != PacketType::ImmediateMask) f |= OpInfo::kSkipsNoPacket;
  o.flags = f;
  // Only instruction packets of RDNA wait for an exec packet (spec §12.2).
  if (type == PacketType::Valuinst || inst_packet) {
    const int queue = exec_queue(name);
    if (queue >= 0) o.queue = static_cast<std::int8_t>(queue + (other ? 4 : 0));
  }
  return o;
}

struct Built {
  std::array<std::string, 256> hex;  // names for op values outside the tables, as VIZ prints them
  OpTables tables;
  Built() {
    for (unsigned i = 0; i < 256; ++i) hex[i] = fmt::format("0x{:02x}", i);
    for (const auto type : {PacketType::Inst, PacketType::InstRdna4, PacketType::CdnaInst}) {
      auto &table = type == PacketType::Inst        ? tables.inst
                    : type == PacketType::InstRdna4 ? tables.inst_rdna4
                                                    : tables.cdna_inst;
      for (unsigned op = 0; op < 256; ++op) {
        auto name = sqtt::inst_op_name(type, op);
        table[op] = make(type, name.empty() ? std::string_view(hex[op]) : name);
      }
    }
    tables.valuinst = make(PacketType::Valuinst, "VALUINST");
    tables.wmma_valu_16 = make(PacketType::Valuinst, "WMMA_VALU_16");
    tables.wmma_valu_32 = make(PacketType::Valuinst, "WMMA_VALU_32");
    tables.immediate = make(PacketType::Immediate, "IMMEDIATE");
    tables.immediate_mask = make(PacketType::ImmediateMask, "IMMEDIATE");
    tables.waverdy = make(PacketType::Waverdy, "WAVERDY");
    tables.waveend = make(PacketType::Waveend, sqtt::to_string(PacketType::Waveend));
    tables.waveend_rdna4 =
        make(PacketType::WaveendRdna4, sqtt::to_string(PacketType::WaveendRdna4));
    tables.cdna_waveend = make(PacketType::CdnaWaveend, sqtt::to_string(PacketType::CdnaWaveend));
    tables.barrier_wait = make(PacketType::Nop, "BARRIER_WAIT");
  }
};

}  // namespace

const OpTables &op_tables() {
  static const Built built;
  return built.tables;
}

}  // namespace wavescope::trace::timeline
