#include "wavescope/hw/am/sdma.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/doorbell.hpp"
#include "wavescope/hw/am/doorbell_routing.hpp"

namespace wavescope::hw::am {

namespace {
constexpr std::chrono::milliseconds kSoftResetPulse{10};
}

SdmaBlock::SdmaBlock(AmRegisters &regs, const AmChipInfo &chip) : regs_(regs), chip_(chip) {
  if (chip_.sdma.major < 4)
    throw Error(ErrorKind::Usage,
                fmt::format("SDMA {} is not driven by AM", chip_.sdma.to_string()));
}

void SdmaBlock::init_hw() {
  const bool sdma4 = chip_.sdma.major < 5;
  const bool mcu = chip_.sdma.major >= 7;  // SDMA 7 runs an MCU, SDMA 6 an F32
  // SDMA 4.x: every instance (16 on a real MI300X; tinygrad assumes 16), else engine 0.
  const unsigned engines = sdma4 ? std::min(16u, chip_.sdma_instances) : 1;
  for (unsigned e = 0; e < engines; ++e) {
    // SDMA 4.x: "sdma0.SDMA_*" on instance e; else "gc.SDMA<e>_*" on instance 0.
    const std::string pre = sdma4 ? "sdma0.SDMA" : fmt::format("gc.SDMA{}", e);
    const unsigned inst = sdma4 ? e : 0;
    if (chip_.sdma.major >= 6) {
      regs_.update(pre + "_WATCHDOG_CNTL", {{"QUEUE_HANG_COUNT", 100}}, inst);  // 10 s
      regs_.update(pre + "_UTCL1_CNTL", {{"RESP_MODE", 3}, {"REDO_DELAY", 9}}, inst);
      if (mcu)
        regs_.update(pre + "_UTCL1_PAGE", {{"RD_L2_POLICY", 2}, {"WR_L2_POLICY", 3}}, inst);
      else
        regs_.update(pre + "_UTCL1_PAGE",
                     {{"RD_L2_POLICY", 2}, {"WR_L2_POLICY", 3}, {"LLC_NOALLOC", 1}}, inst);
      if (mcu)
        regs_.update(pre + "_MCU_CNTL", {{"HALT", 0}, {"RESET", 0}}, inst);
      else
        regs_.update(pre + "_F32_CNTL", {{"HALT", 0}, {"TH1_RESET", 0}}, inst);
    }
    if (chip_.sdma <= regs::IpVersion{5, 2, 0})
      regs_.update(pre + "_CNTL", {{"TRAP_ENABLE", 1}, {"UTC_L1_ENABLE", 1}}, inst);
    else
      regs_.update(pre + "_CNTL", {{"TRAP_ENABLE", 1}}, inst);
  }
  enable_sdma_doorbells(regs_, chip_);
}

SdmaBlock::QueueRegisters SdmaBlock::queue_registers(unsigned idx) const {
  const unsigned pipe = idx / 4, queue = idx % 4;
  if (chip_.sdma.major == 4 && chip_.sdma.minor == 4) return {"sdma0.SDMA_GFX", pipe + queue * 4};
  return {fmt::format("gc.SDMA{}_QUEUE{}", pipe, queue), 0};
}

unsigned SdmaBlock::setup_ring(const SdmaRing &ring) {
  if (chip_.sdma.major >= 5 && ring.idx > 0)
    throw Error(ErrorKind::Usage, fmt::format("SDMA queue {} is not available (SDMA {} has queue "
                                              "0 only here)",
                                              ring.idx, chip_.sdma.to_string()));
  if (ring.idx > 15)
    throw Error(ErrorKind::Usage, fmt::format("SDMA queue {} is outside 0..15", ring.idx));
  if (ring.ring_bytes < 256 || !std::has_single_bit(ring.ring_bytes) || ring.ring_va % 256 != 0)
    throw Error(ErrorKind::Usage,
                fmt::format("SDMA ring at {:#x} of {:#x} bytes: the size must be a power of two "
                            ">= 0x100 and the address 256-byte aligned",
                            ring.ring_va, ring.ring_bytes));
  const unsigned pipe = ring.idx / 4, queue = ring.idx % 4;
  const QueueRegisters q = queue_registers(ring.idx);
  const std::string &r = q.prefix;
  const unsigned inst = q.instance;
  const unsigned doorbell = sdma_doorbell_index(pipe, queue);
  queues_.push_back(q);

  regs_.write(r + "_MINOR_PTR_UPDATE", 1, inst);
  regs_.write_pair(r + "_RB_RPTR", "", "_HI", 0, inst);
  regs_.write_pair(r + "_RB_WPTR", "", "_HI", 0, inst);
  regs_.write_pair(r + "_RB_BASE", "", "_HI", ring.ring_va >> 8, inst);
  regs_.write_pair(r + "_RB_RPTR_ADDR", "_LO", "_HI", ring.rptr_va, inst);
  regs_.write_pair(r + "_RB_WPTR_POLL_ADDR", "_LO", "_HI", ring.wptr_va, inst);
  regs_.update(r + "_DOORBELL_OFFSET", {{"OFFSET", doorbell_register_offset(doorbell)}}, inst);
  regs_.update(r + "_DOORBELL", {{"ENABLE", 1}}, inst);
  regs_.write(r + "_MINOR_PTR_UPDATE", 0, inst);
  const unsigned rb_size = static_cast<unsigned>(std::countr_zero(ring.ring_bytes / 4));
  if (chip_.sdma.major == 4 && chip_.sdma.minor == 4)
    regs_.write_fields(r + "_RB_CNTL",
                       {{"RB_VMID", 0},
                        {"RPTR_WRITEBACK_ENABLE", 1},
                        {"RPTR_WRITEBACK_TIMER", 4},
                        {"RB_ENABLE", 1},
                        {"RB_PRIV", 1},
                        {"RB_SIZE", rb_size}},
                       inst);
  else
    regs_.write_fields(
        r + "_RB_CNTL",
        {{chip_.sdma.major >= 7 ? "MCU_WPTR_POLL_ENABLE" : "F32_WPTR_POLL_ENABLE", 1},
         {"RB_VMID", 0},
         {"RPTR_WRITEBACK_ENABLE", 1},
         {"RPTR_WRITEBACK_TIMER", 4},
         {"RB_ENABLE", 1},
         {"RB_PRIV", 1},
         {"RB_SIZE", rb_size}},
        inst);
  regs_.update(r + "_IB_CNTL", {{"IB_ENABLE", 1}}, inst);
  return doorbell;
}

void SdmaBlock::fini() {
  for (const auto &q : queues_) {
    regs_.update(q.prefix + "_RB_CNTL", {{"RB_ENABLE", 0}}, q.instance);
    regs_.update(q.prefix + "_IB_CNTL", {{"IB_ENABLE", 0}}, q.instance);
    regs_.update(q.prefix + "_DOORBELL", {{"ENABLE", 0}}, q.instance);
    regs_.update(q.prefix + "_DOORBELL_OFFSET", {{"OFFSET", 0}}, q.instance);
  }
  if (chip_.sdma.major >= 6) {
    regs_.write_fields("gc.GRBM_SOFT_RESET", {{"SOFT_RESET_SDMA0", 1}});
    regs_.sleep(kSoftResetPulse);
    regs_.write("gc.GRBM_SOFT_RESET", 0);
  }
}

}  // namespace wavescope::hw::am
