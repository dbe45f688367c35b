#pragma once
// Doorbell routing in the NBIO (am-driver.md §12.2): the S2A doorbell entries that send a range
// of doorbell slots to an engine. GFX init enables compute ports 0 and 3, SDMA init port 2 (on
// NBIO 7.9 instead, per AID, four BIF doorbell range entries and S2A ports 1, 2, 5, 6 through
// PCIE INDEX2). The register is GDC_S2A0_S2A_DOORBELL_ENTRY_<port>_CTRL on GC >= 12, else
// S2A_DOORBELL_ENTRY_<port>_CTRL.

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::hw::am {

struct S2aDoorbellPort {
  unsigned port = 0, awid = 0, awaddr_31_28 = 0, range_offset = 0, range_size = 0;
};

bool is_nbio_7_9(const AmChipInfo &chip);
// Writes the entry (enable 1 and the given fields, the rest 0) on AID `aid` (through PCIE INDEX2
// on NBIO 7.9, else directly). Returns the value written.
std::uint32_t s2a_doorbell_enable(AmRegisters &regs, const AmChipInfo &chip,
                                  const S2aDoorbellPort &port, unsigned aid = 0);
// GFX init's compute ports 0 (awid 3) and 3 (awid 6), awaddr 3, range 0/0. Not on NBIO 7.9.
void enable_compute_doorbells(AmRegisters &regs, const AmChipInfo &chip);
// SDMA init's routing: port 2 (awid 0xE, awaddr 3, offset 0x200, size 4), or on NBIO 7.9 per AID
// the BIF DOORBELL0_CTRL_ENTRY_1..4(+4 x aid) ranges and ports 1, 2, 5, 6.
void enable_sdma_doorbells(AmRegisters &regs, const AmChipInfo &chip);

}  // namespace wavescope::hw::am
