#pragma once
// The state of the queues AM drives, read from the registers (am-driver.md §12.4, §12.7): each
// XCC's compute HQDs of me 1 / pipe 0 / queues 0-1 (selected through GRBM_GFX_CNTL, which is
// written and then restored to 0) and the SDMA queues (SDMA0_QUEUE0 on SDMA >= 5, SDMA_GFX on
// every SDMA 4.4 instance). Reading the HQDs writes GRBM_GFX_CNTL: on a real GPU that is a
// register write (untested on hardware).

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::hw::am {

struct ComputeQueueStatus {
  unsigned xcc = 0, me = 1, pipe = 0, queue = 0;
  bool active = false, aql = false, doorbell_enabled = false;
  unsigned doorbell = 0;  // slot
  std::uint64_t mqd_base = 0, ring_va = 0, ring_bytes = 0, rptr_report_va = 0, wptr_poll_va = 0,
                eop_va = 0;
  std::uint32_t rptr = 0;  // CP_HQD_PQ_RPTR (dwords into the ring)
  std::uint64_t wptr = 0;  // CP_HQD_PQ_WPTR_LO/HI (dwords)
};

struct SdmaQueueStatus {
  std::string registers;  // "gc.SDMA0_QUEUE0", "sdma0.SDMA_GFX"
  unsigned instance = 0;
  bool enabled = false, doorbell_enabled = false;
  unsigned doorbell = 0;                                          // slot
  std::uint64_t ring_va = 0, ring_bytes = 0, rptr = 0, wptr = 0;  // pointers in bytes
  std::uint64_t rptr_writeback_va = 0;                            // 0: no write-back
};

std::vector<ComputeQueueStatus> read_compute_queues(AmRegisters &regs, const AmChipInfo &chip);
std::vector<SdmaQueueStatus> read_sdma_queues(AmRegisters &regs, const AmChipInfo &chip);

}  // namespace wavescope::hw::am
