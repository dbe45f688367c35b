#pragma once
// The AM driver's SDMA block (am-driver.md §12.6, §12.7, §14.1): engine init (watchdog, UTCL1,
// F32 (SDMA 6) or MCU (SDMA 7) run, trap enable; on SDMA 4.x every instance discovery lists, up
// to the 16 of a real MI300X), the
// doorbell routing, queue setup in the order of §12.7 (SDMA<pipe>_QUEUE<queue>_* on SDMA >= 5, only
// queue 0; SDMA_GFX_* on instance pipe + 4 x queue on 4.4), and fini (queues off, SDMA soft reset).

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::hw::am {

struct SdmaRing {
  std::uint64_t ring_va = 0, ring_bytes = 0, rptr_va = 0, wptr_va = 0;
  unsigned idx = 0;  // pipe = idx / 4, queue = idx % 4
};

class SdmaBlock {
public:
  SdmaBlock(AmRegisters &regs, const AmChipInfo &chip);

  void init_hw();
  // Returns the doorbell slot (0x100 + 0xA x (pipe + 4 x queue)).
  unsigned setup_ring(const SdmaRing &ring);
  void fini();

  // "gc.SDMA0_QUEUE0" or "sdma0.SDMA_GFX" and its instance, for a queue index.
  struct QueueRegisters {
    std::string prefix;
    unsigned instance = 0;
  };
  QueueRegisters queue_registers(unsigned idx) const;
  const std::vector<QueueRegisters> &queues() const { return queues_; }

private:
  AmRegisters &regs_;
  AmChipInfo chip_;
  std::vector<QueueRegisters> queues_;  // set up, for fini
};

}  // namespace wavescope::hw::am
