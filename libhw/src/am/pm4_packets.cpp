#include "wavescope/hw/am/pm4_packets.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {
std::uint32_t lo32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
std::uint32_t hi32(std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); }

// nvd.h RELEASE_MEM GCR bits: GLM_WB 12, GLM_INV 13, GLV_INV 14, GL1_INV 15, GL2_INV 20,
// GL2_WB 21, SEQ 22.
constexpr std::uint32_t kReleaseMemGcrFlush =
    (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15) | (1u << 20) | (1u << 21) | (1u << 22);
// soc15d.h EOP_TC_WB_ACTION_EN (15) | EOP_TC_NC_ACTION_EN (19).
constexpr std::uint32_t kEopTcFlushGfx9 = (1u << 15) | (1u << 19);
// nvd.h ACQUIRE_MEM GCR_CNTL: GLI_INV 0, GLM_WB 4, GLM_INV 5, GLK_WB 6, GLK_INV 7, GLV_INV 8,
// GL1_INV 9, GL2_INV 14, GL2_WB 15.
constexpr std::uint32_t kAcquireMemGcrAll = (1u << 0) | (1u << 4) | (1u << 5) | (1u << 6) |
                                            (1u << 7) | (1u << 8) | (1u << 9) | (1u << 14) |
                                            (1u << 15);
// soc15d.h CP_COHER_CNTL: TC_WB 18, TCL1 22, TC 23, SH_KCACHE 27, SH_ICACHE 29.
constexpr std::uint32_t kAcquireMemCoherAllGfx9 =
    (1u << 18) | (1u << 22) | (1u << 23) | (1u << 27) | (1u << 29);

std::string describe(unsigned opcode, const std::vector<std::uint32_t> &p, Pm4Generation gen) {
  auto va = [&](std::size_t i) { return std::uint64_t{p[i]} | std::uint64_t{p[i + 1]} << 32; };
  switch (opcode) {
  case pm4::kNop: return fmt::format("{} dwords", p.size());
  case pm4::kWaitRegMem:
    if (p.size() < 6) break;
    if (p[0] & (1u << 4))
      return fmt::format("mem va={:#x} func={} value={:#x} mask={:#x}", va(1), p[0] & 7, p[3],
                         p[4]);
    return fmt::format("reg {:#x}{} func={} value={:#x} mask={:#x}", p[1],
                       (p[0] >> 6 & 3) ? fmt::format(" done reg {:#x}", p[2]) : "", p[0] & 7, p[3],
                       p[4]);
  case pm4::kIndirectBuffer:
    if (p.size() < 3) break;
    return fmt::format("va={:#x} size={:#x} dwords{}", va(0), p[2] & 0xFFFFF,
                       (p[2] & pm4::kIndirectBufferValid) ? "" : " (not valid)");
  case pm4::kReleaseMem:
    if (p.size() < 6) break;
    return fmt::format(
        "event={:#x} data_sel={} int_sel={} va={:#x} data={:#x}{}", p[0] & 0x3F, p[1] >> 29 & 7,
        p[1] >> 24 & 7, va(2), va(4),
        gen == Pm4Generation::Gfx10Plus && p.size() > 6 ? fmt::format(" ctx_id={:#x}", p[6]) : "");
  case pm4::kEventWrite:
    if (p.empty()) break;
    return fmt::format("event={:#x} index={}", p[0] & 0x3F, p[0] >> 8 & 0xF);
  case pm4::kSetShReg:
  case pm4::kSetUconfigReg:
    if (p.empty()) break;
    return fmt::format("reg {:#x} x{}",
                       p[0] + (opcode == pm4::kSetShReg ? pm4::kShRegStart : pm4::kUconfigRegStart),
                       p.size() - 1);
  case pm4::kDispatchDirect:
    if (p.size() < 4) break;
    return fmt::format("{}x{}x{} initiator={:#x}", p[0], p[1], p[2], p[3]);
  case pm4::kPredExec:
    if (p.empty()) break;
    return fmt::format("xcc_mask={:#x} dwords={}", p[0] >> 24, p[0] & 0x3FFF);
  default: break;
  }
  return "";
}
}  // namespace

Pm4Generation pm4_generation_for_gc(unsigned gc_major) {
  return gc_major < 10 ? Pm4Generation::Gfx9 : Pm4Generation::Gfx10Plus;
}

std::uint32_t pm4_header(unsigned opcode, unsigned payload_dwords) {
  return (3u << 30) | ((payload_dwords - 1u) & 0x3FFFu) << 16 | (opcode & 0xFFu) << 8;
}

const char *pm4_opcode_name(unsigned opcode) {
  switch (opcode) {
  case pm4::kNop: return "NOP";
  case pm4::kDispatchDirect: return "DISPATCH_DIRECT";
  case pm4::kPredExec: return "PRED_EXEC";
  case pm4::kWaitRegMem: return "WAIT_REG_MEM";
  case pm4::kIndirectBuffer: return "INDIRECT_BUFFER";
  case pm4::kEventWrite: return "EVENT_WRITE";
  case pm4::kReleaseMem: return "RELEASE_MEM";
  case pm4::kAcquireMem: return "ACQUIRE_MEM";
  case pm4::kSetShReg: return "SET_SH_REG";
  case pm4::kSetUconfigReg: return "SET_UCONFIG_REG";
  default: return "";
  }
}

void Pm4Stream::packet(unsigned opcode, std::initializer_list<std::uint32_t> payload) {
  dwords_.push_back(pm4_header(opcode, static_cast<unsigned>(payload.size())));
  dwords_.insert(dwords_.end(), payload.begin(), payload.end());
}

Pm4Stream &Pm4Stream::nop(unsigned payload_dwords) {
  if (payload_dwords > 0x3FFF)
    throw Error(ErrorKind::Usage,
                fmt::format("PM4 NOP: {:#x} payload dwords is more than 0x3fff", payload_dwords));
  dwords_.push_back(pm4_header(pm4::kNop, payload_dwords));
  dwords_.insert(dwords_.end(), payload_dwords, 0u);
  return *this;
}

Pm4Stream &Pm4Stream::wait_reg_mem_memory(std::uint64_t va, std::uint32_t value, std::uint32_t mask,
                                          unsigned function) {
  if (va % 4 != 0)
    throw Error(ErrorKind::Usage,
                fmt::format("PM4 WAIT_REG_MEM: va {:#x} is not 4-byte aligned", va));
  // FUNCTION bits 0..2, MEM_SPACE 4, OPERATION 6, ENGINE 8 (ME).
  packet(pm4::kWaitRegMem, {(function & 7u) | 1u << 4, lo32(va), hi32(va), value, mask, 4});
  return *this;
}

Pm4Stream &Pm4Stream::wait_reg_mem_register(std::uint32_t reg, std::uint32_t reg_done,
                                            std::uint32_t value, std::uint32_t mask,
                                            unsigned function) {
  const std::uint32_t operation = reg_done > 0 ? 1u : 0u;
  packet(pm4::kWaitRegMem, {(function & 7u) | operation << 6, reg, reg_done, value, mask, 4});
  return *this;
}

Pm4Stream &Pm4Stream::indirect_buffer(std::uint64_t va, std::uint32_t size_dwords) {
  if (va % 4 != 0 || size_dwords == 0 || size_dwords > 0xFFFFF)
    throw Error(ErrorKind::Usage,
                fmt::format("PM4 INDIRECT_BUFFER: va {:#x} must be 4-byte aligned and the size "
                            "{:#x} dwords in 1..0xfffff",
                            va, size_dwords));
  packet(pm4::kIndirectBuffer, {lo32(va), hi32(va), size_dwords | pm4::kIndirectBufferValid});
  return *this;
}

Pm4Stream &Pm4Stream::release_mem(std::uint64_t va, std::uint64_t value, unsigned data_sel,
                                  unsigned int_sel, std::uint32_t ctx_id, bool cache_flush) {
  const std::uint32_t event = pm4::kCacheFlushAndInvTsEvent | pm4::kEventIndexEndOfPipe << 8;
  const std::uint32_t sel = (data_sel & 7u) << 29 | (int_sel & 7u) << 24;  // DST_SEL 0: memory
  if (generation_ == Pm4Generation::Gfx9) {
    packet(pm4::kReleaseMem, {event | (cache_flush ? kEopTcFlushGfx9 : 0u), sel, lo32(va), hi32(va),
                              lo32(value), hi32(value), 0});
  } else {
    packet(pm4::kReleaseMem, {event | (cache_flush ? kReleaseMemGcrFlush : 0u), sel, lo32(va),
                              hi32(va), lo32(value), hi32(value), ctx_id});
  }
  return *this;
}

Pm4Stream &Pm4Stream::acquire_mem() {
  if (generation_ == Pm4Generation::Gfx9)
    packet(pm4::kAcquireMem,
           {kAcquireMemCoherAllGfx9, 0xFFFF'FFFF, 0xFFFF'FFFF, 0, 0, 0x0000'000A});
  else
    packet(pm4::kAcquireMem, {0, 0xFFFF'FFFF, 0xFFFF'FFFF, 0, 0, 0, kAcquireMemGcrAll});
  return *this;
}

Pm4Stream &Pm4Stream::event_write(unsigned event_type, unsigned event_index) {
  packet(pm4::kEventWrite, {(event_type & 0x3Fu) | (event_index & 0xFu) << 8});
  return *this;
}

Pm4Stream &Pm4Stream::set_reg(unsigned opcode, std::uint32_t start, std::uint32_t end,
                              std::uint32_t reg, std::span<const std::uint32_t> values) {
  if (values.empty() || reg < start || reg + values.size() > end)
    throw Error(ErrorKind::Usage,
                fmt::format("PM4 {}: registers {:#x}..+{} are outside its window {:#x}..{:#x}",
                            pm4_opcode_name(opcode), reg, values.size(), start, end));
  dwords_.push_back(pm4_header(opcode, static_cast<unsigned>(values.size() + 1)));
  dwords_.push_back(reg - start);
  dwords_.insert(dwords_.end(), values.begin(), values.end());
  return *this;
}

Pm4Stream &Pm4Stream::set_sh_reg(std::uint32_t reg, std::span<const std::uint32_t> values) {
  return set_reg(pm4::kSetShReg, pm4::kShRegStart, pm4::kShRegEnd, reg, values);
}

Pm4Stream &Pm4Stream::set_uconfig_reg(std::uint32_t reg, std::span<const std::uint32_t> values) {
  return set_reg(pm4::kSetUconfigReg, pm4::kUconfigRegStart, pm4::kUconfigRegEnd, reg, values);
}

Pm4Stream &Pm4Stream::dispatch_direct(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                      std::uint32_t initiator) {
  packet(pm4::kDispatchDirect, {x, y, z, initiator});
  return *this;
}

Pm4Stream &Pm4Stream::pred_exec(std::uint32_t xcc_mask, std::uint32_t dwords) {
  if (xcc_mask > 0xFF || dwords > 0x3FFF)
    throw Error(ErrorKind::Usage, fmt::format("PM4 PRED_EXEC: xcc mask {:#x} or {:#x} dwords out "
                                              "of range (0xff, 0x3fff)",
                                              xcc_mask, dwords));
  packet(pm4::kPredExec, {xcc_mask << 24 | dwords});
  return *this;
}

Pm4Stream &Pm4Stream::signal(std::uint64_t va, std::uint32_t value) {
  return release_mem(va, value, pm4::kDataSel32BitLow, pm4::kIntSelNone, 0, true);
}

Pm4Stream &Pm4Stream::write(std::uint64_t va, std::uint64_t value, bool b64) {
  if (!b64 && value > 0xFFFF'FFFF)
    throw Error(ErrorKind::Usage,
                fmt::format("PM4 write: value {:#x} does not fit 32 bits (ask for 64)", value));
  return release_mem(va, value, b64 ? pm4::kDataSel64Bit : pm4::kDataSel32BitLow, pm4::kIntSelNone);
}

Pm4Stream &Pm4Stream::timestamp(std::uint64_t va) {
  release_mem(0, 0, pm4::kDataSelNone, pm4::kIntSelInterruptAfterWriteConfirm);
  release_mem(va, 0, pm4::kDataSelGpuClock, pm4::kIntSelNone);
  return acquire_mem();
}

Pm4Stream &Pm4Stream::wait(std::uint64_t va, std::uint32_t value) {
  return wait_reg_mem_memory(va, value);
}

Pm4Stream &Pm4Stream::memory_barrier(std::uint32_t hdp_flush_req, std::uint32_t hdp_flush_done) {
  wait_reg_mem_register(hdp_flush_req, hdp_flush_done, 0xFFFF'FFFF);
  return acquire_mem();
}

std::vector<Pm4Packet> decode_pm4(std::span<const std::uint32_t> dwords, Pm4Generation gen) {
  std::vector<Pm4Packet> out;
  std::size_t i = 0;
  while (i < dwords.size()) {
    const std::uint32_t h = dwords[i];
    Pm4Packet p;
    p.offset = i;
    p.type = h >> 30;
    if (p.type == 2) {
      p.name = "TYPE2";
      out.push_back(std::move(p));
      ++i;
      continue;
    }
    if (p.type != 3)
      throw Error(ErrorKind::BadInput,
                  fmt::format("PM4 stream: dword {:#x} holds {:#010x}, a type-{} header (only "
                              "type 2 and 3 are used on compute rings)",
                              i, h, p.type));
    p.opcode = h >> 8 & 0xFF;
    const unsigned count = h >> 16 & 0x3FFF;
    const std::size_t payload = (p.opcode == pm4::kNop && count == 0x3FFF) ? 0 : count + 1;
    if (i + 1 + payload > dwords.size())
      throw Error(ErrorKind::BadInput,
                  fmt::format("PM4 stream: the packet at dword {:#x} (header {:#010x}) needs {:#x} "
                              "payload dwords, only {:#x} follow",
                              i, h, payload, dwords.size() - i - 1));
    const char *name = pm4_opcode_name(p.opcode);
    p.name = *name ? name : fmt::format("OP_{:#04x}", p.opcode);
    p.payload.assign(dwords.begin() + static_cast<std::ptrdiff_t>(i + 1),
                     dwords.begin() + static_cast<std::ptrdiff_t>(i + 1 + payload));
    p.description = describe(p.opcode, p.payload, gen);
    i += 1 + payload;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace wavescope::hw::am
