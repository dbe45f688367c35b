#pragma once
// HDP (am-driver.md §8, §13): the flush AM does before TLB invalidations, after filling the PSP
// message buffer, after writing an MQD and before every PCIe doorbell — read
// BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL (a BAR5 byte offset; AM never programs it) and write 0 to that
// dword — and the HDP part of SOC clock gating.

#include <cstdint>

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::hw::am {

// Returns the dword address written.
std::uint64_t flush_hdp(AmRegisters &regs);
// HDP >= 5.2.1: HDP_MEM_POWER_CTRL atomic_mem_power_ctrl_en 1, atomic_mem_power_ds_en 1 (the
// [run] value 0x5 from 0). Returns whether it wrote.
bool set_hdp_clockgating(AmRegisters &regs, const AmChipInfo &chip);

}  // namespace wavescope::hw::am
