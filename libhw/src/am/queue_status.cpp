#include "wavescope/hw/am/queue_status.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wavescope/hw/am/sdma.hpp"

namespace wavescope::hw::am {

namespace {
std::uint64_t pair(AmRegisters &regs, const std::string &lo, const std::string &hi, unsigned inst) {
  return std::uint64_t{regs.read(lo, inst)} | std::uint64_t{regs.read(hi, inst)} << 32;
}
}  // namespace

std::vector<ComputeQueueStatus> read_compute_queues(AmRegisters &regs, const AmChipInfo &chip) {
  std::vector<ComputeQueueStatus> out;
  for (unsigned xcc = 0; xcc < chip.xccs; ++xcc) {
    for (unsigned queue = 0; queue < 2; ++queue) {
      regs.write_fields("gc.GRBM_GFX_CNTL", {{"MEID", 1}, {"PIPEID", 0}, {"QUEUEID", queue}}, xcc);
      ComputeQueueStatus s;
      s.xcc = xcc;
      s.queue = queue;
      s.active = (regs.read("gc.CP_HQD_ACTIVE", xcc) & 1) != 0;
      s.mqd_base = pair(regs, "gc.CP_MQD_BASE_ADDR", "gc.CP_MQD_BASE_ADDR_HI", xcc);
      s.ring_va = pair(regs, "gc.CP_HQD_PQ_BASE", "gc.CP_HQD_PQ_BASE_HI", xcc) << 8;
      const std::uint32_t control = regs.read("gc.CP_HQD_PQ_CONTROL", xcc);
      s.ring_bytes = 4ull << (regs.field("gc.CP_HQD_PQ_CONTROL", "QUEUE_SIZE", control) + 1);
      s.rptr_report_va =
          pair(regs, "gc.CP_HQD_PQ_RPTR_REPORT_ADDR", "gc.CP_HQD_PQ_RPTR_REPORT_ADDR_HI", xcc);
      s.wptr_poll_va =
          pair(regs, "gc.CP_HQD_PQ_WPTR_POLL_ADDR", "gc.CP_HQD_PQ_WPTR_POLL_ADDR_HI", xcc);
      s.eop_va = pair(regs, "gc.CP_HQD_EOP_BASE_ADDR", "gc.CP_HQD_EOP_BASE_ADDR_HI", xcc) << 8;
      const std::uint32_t doorbell = regs.read("gc.CP_HQD_PQ_DOORBELL_CONTROL", xcc);
      s.doorbell_enabled =
          regs.field("gc.CP_HQD_PQ_DOORBELL_CONTROL", "DOORBELL_EN", doorbell) != 0;
      s.doorbell = static_cast<unsigned>(
          regs.field("gc.CP_HQD_PQ_DOORBELL_CONTROL", "DOORBELL_OFFSET", doorbell) / 2);
      s.aql = (regs.read("gc.CP_HQD_AQL_CONTROL", xcc) & 1) != 0;
      s.rptr = regs.read("gc.CP_HQD_PQ_RPTR", xcc);
      s.wptr = pair(regs, "gc.CP_HQD_PQ_WPTR_LO", "gc.CP_HQD_PQ_WPTR_HI", xcc);
      out.push_back(s);
    }
    regs.write("gc.GRBM_GFX_CNTL", 0, xcc);
  }
  return out;
}

std::vector<SdmaQueueStatus> read_sdma_queues(AmRegisters &regs, const AmChipInfo &chip) {
  std::vector<SdmaQueueStatus> out;
  const SdmaBlock sdma(regs, chip);
  const bool sdma4 = chip.sdma.major == 4 && chip.sdma.minor == 4;
  const unsigned queues = sdma4 ? std::min(16u, chip.sdma_instances) : 1;
  for (unsigned idx = 0; idx < queues; ++idx) {
    // On SDMA 4.4 instance n is queue index n (pipe n % 4, queue n / 4).
    const auto q = sdma.queue_registers(sdma4 ? (idx % 4) * 4 + idx / 4 : idx);
    const std::string &r = q.prefix;
    SdmaQueueStatus s;
    s.registers = r;
    s.instance = q.instance;
    const std::uint32_t cntl = regs.read(r + "_RB_CNTL", q.instance);
    s.enabled = regs.field(r + "_RB_CNTL", "RB_ENABLE", cntl) != 0;
    s.ring_bytes = 4ull << regs.field(r + "_RB_CNTL", "RB_SIZE", cntl);
    s.ring_va = pair(regs, r + "_RB_BASE", r + "_RB_BASE_HI", q.instance) << 8;
    s.rptr = pair(regs, r + "_RB_RPTR", r + "_RB_RPTR_HI", q.instance);
    s.wptr = pair(regs, r + "_RB_WPTR", r + "_RB_WPTR_HI", q.instance);
    if (regs.field(r + "_RB_CNTL", "RPTR_WRITEBACK_ENABLE", cntl))
      s.rptr_writeback_va = pair(regs, r + "_RB_RPTR_ADDR_LO", r + "_RB_RPTR_ADDR_HI", q.instance);
    s.doorbell_enabled =
        regs.field(r + "_DOORBELL", "ENABLE", regs.read(r + "_DOORBELL", q.instance)) != 0;
    s.doorbell = static_cast<unsigned>(regs.field(r + "_DOORBELL_OFFSET", "OFFSET",
                                                  regs.read(r + "_DOORBELL_OFFSET", q.instance)) /
                                       2);
    out.push_back(s);
  }
  return out;
}

}  // namespace wavescope::hw::am
