#pragma once
// PM4 type-3 packets for the compute rings AM drives (am-driver.md §12.8): the stream builder the
// runtime uses (tinygrad's AMDComputeQueue) and a decoder that splits a dword stream back into
// packets (for `wavectl am ring` and the fake's CP). Field layouts from the kernel's nvd.h
// (gfx10+) and soc15d.h / kfd_pm4_headers_ai.h (gfx9). Pure: no device access.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wavescope::hw::am {

// soc15d.h layouts (GC 9.x) or nvd.h layouts (GC 10 and later).
enum class Pm4Generation { Gfx9, Gfx10Plus };
Pm4Generation pm4_generation_for_gc(unsigned gc_major);

namespace pm4 {
inline constexpr unsigned kNop = 0x10, kDispatchDirect = 0x15, kPredExec = 0x23, kWaitRegMem = 0x3C,
                          kIndirectBuffer = 0x3F, kEventWrite = 0x46, kReleaseMem = 0x49,
                          kAcquireMem = 0x58, kSetShReg = 0x76, kSetUconfigReg = 0x79;
inline constexpr std::uint32_t kShRegStart = 0x2C00, kShRegEnd = 0x3000;
inline constexpr std::uint32_t kUconfigRegStart = 0xC000, kUconfigRegEnd = 0xC000 + 0xFFFF;
inline constexpr std::uint32_t kIndirectBufferValid = 1u << 23;
// WAIT_REG_MEM compare functions (also SDMA POLL_REGMEM's).
inline constexpr unsigned kFuncAlways = 0, kFuncLess = 1, kFuncLessEqual = 2, kFuncEqual = 3,
                          kFuncNotEqual = 4, kFuncGreaterEqual = 5, kFuncGreater = 6;
// VGT event CACHE_FLUSH_AND_INV_TS_EVENT and the MEC end-of-pipe event index.
inline constexpr unsigned kCacheFlushAndInvTsEvent = 0x14, kEventIndexEndOfPipe = 5;
// RELEASE_MEM data_sel / int_sel (kfd_pm4_headers_ai.h).
inline constexpr unsigned kDataSelNone = 0, kDataSel32BitLow = 1, kDataSel64Bit = 2,
                          kDataSelGpuClock = 3;
inline constexpr unsigned kIntSelNone = 0, kIntSelInterruptOnly = 1,
                          kIntSelInterruptAfterWriteConfirm = 2;
}  // namespace pm4

// (3 << 30) | ((payload_dwords − 1) & 0x3FFF) << 16 | opcode << 8. payload_dwords 0 gives the
// count field 0x3FFF (the one-dword NOP the kernel uses for padding).
std::uint32_t pm4_header(unsigned opcode, unsigned payload_dwords);
const char *pm4_opcode_name(unsigned opcode);  // "RELEASE_MEM"; "" when not one of §12.8's

// A packet stream under construction. Every method appends one packet (or, for the helpers,
// what tinygrad emits) and returns *this. Addresses are GPU VAs; register numbers are dword
// addresses of the fixed PM4 base tables (§12.8), checked against the packet's window.
class Pm4Stream {
public:
  explicit Pm4Stream(Pm4Generation generation) : generation_(generation) {}

  // NOP with `payload_dwords` zero dwords (0: the single-dword NOP).
  Pm4Stream &nop(unsigned payload_dwords = 0);
  // WAIT_REG_MEM on memory (mem_space 1): [info, va lo, va hi, value, mask, poll interval 4].
  Pm4Stream &wait_reg_mem_memory(std::uint64_t va, std::uint32_t value,
                                 std::uint32_t mask = 0xFFFF'FFFF,
                                 unsigned function = pm4::kFuncGreaterEqual);
  // WAIT_REG_MEM on a register; with `reg_done` non-zero the CP writes `reg` then polls
  // `reg_done` (operation 1, the HDP flush handshake).
  Pm4Stream &wait_reg_mem_register(std::uint32_t reg, std::uint32_t reg_done, std::uint32_t value,
                                   std::uint32_t mask = 0xFFFF'FFFF,
                                   unsigned function = pm4::kFuncGreaterEqual);
  // INDIRECT_BUFFER: [va lo, va hi, size | valid]. va 4-byte aligned, size < 2^20 dwords.
  Pm4Stream &indirect_buffer(std::uint64_t va, std::uint32_t size_dwords);
  // RELEASE_MEM at end of pipe: [event (+ cache flags), data/int sel, va lo, va hi, data lo,
  // data hi, ctx id]. gfx9 has no ctx id (written 0).
  Pm4Stream &release_mem(std::uint64_t va, std::uint64_t value, unsigned data_sel, unsigned int_sel,
                         std::uint32_t ctx_id = 0, bool cache_flush = false);
  // ACQUIRE_MEM over the whole address space invalidating/writing back every cache level.
  Pm4Stream &acquire_mem();
  Pm4Stream &event_write(unsigned event_type, unsigned event_index);
  Pm4Stream &set_sh_reg(std::uint32_t reg, std::span<const std::uint32_t> values);
  Pm4Stream &set_uconfig_reg(std::uint32_t reg, std::span<const std::uint32_t> values);
  Pm4Stream &dispatch_direct(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                             std::uint32_t initiator);
  // PRED_EXEC over the next `dwords` dwords for the XCCs in `xcc_mask` (only works in IBs).
  Pm4Stream &pred_exec(std::uint32_t xcc_mask, std::uint32_t dwords);

  // tinygrad's helpers: signal (RELEASE_MEM 32-bit value with cache flush, no interrupt), write
  // (32- or 64-bit value, no flush), timestamp (GPU clock counter), wait (GEQ on memory), and the
  // memory barrier (HDP flush request/done handshake, then ACQUIRE_MEM).
  Pm4Stream &signal(std::uint64_t va, std::uint32_t value);
  Pm4Stream &write(std::uint64_t va, std::uint64_t value, bool b64 = false);
  Pm4Stream &timestamp(std::uint64_t va);
  Pm4Stream &wait(std::uint64_t va, std::uint32_t value);
  Pm4Stream &memory_barrier(std::uint32_t hdp_flush_req, std::uint32_t hdp_flush_done);

  Pm4Generation generation() const { return generation_; }
  const std::vector<std::uint32_t> &dwords() const { return dwords_; }
  std::size_t size() const { return dwords_.size(); }

private:
  void packet(unsigned opcode, std::initializer_list<std::uint32_t> payload);
  Pm4Stream &set_reg(unsigned opcode, std::uint32_t start, std::uint32_t end, std::uint32_t reg,
                     std::span<const std::uint32_t> values);

  Pm4Generation generation_;
  std::vector<std::uint32_t> dwords_;
};

struct Pm4Packet {
  std::size_t offset = 0;  // dword index of the header in the stream
  unsigned type = 3;       // 2: a one-dword filler; 3: a type-3 packet
  unsigned opcode = 0;
  std::string name;  // pm4_opcode_name, or "OP_0x.." for other opcodes
  std::vector<std::uint32_t> payload;
  std::string description;  // "va=0x... value=0x..." for the packets of §12.8
};

// Splits `dwords` into packets. A packet running past the end, or a type-0/1 header, is
// Error(BadInput) naming the dword index and the header in hex.
std::vector<Pm4Packet> decode_pm4(std::span<const std::uint32_t> dwords,
                                  Pm4Generation generation = Pm4Generation::Gfx10Plus);

}  // namespace wavescope::hw::am
