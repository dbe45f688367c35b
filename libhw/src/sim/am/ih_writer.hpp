#pragma once
// The fake IH's ring writer (am-driver.md §11, §19.2 item 7): 8-dword entries written at the
// write pointer of an enabled ring in VRAM, the write pointer copied to the write-back page (the
// IH_RB_WPTR value: byte offset, bit 0 = overflow), and overflow when the entry would catch up
// with the read pointer: with WPTR_OVERFLOW_ENABLE RB_OVERFLOW is latched (until the driver clears
// it) and the oldest entry overwritten, as the kernel expects; without it the entry is dropped. The
// read pointer is taken as a dword index, the way AM writes IH_RB_RPTR (§22 item 4). Also the
// entries the fake scripts: SQ errors, UTCL2 faults, CP EOP and SDMA traps, per IH generation.

#include <array>
#include <cstdint>
#include <optional>

#include "wavescope/hw/am/ih_entry.hpp"

namespace wavescope::hw::am {
class VramAccess;
}

namespace wavescope::hw::sim::am {

using IhDwords = std::array<std::uint32_t, 8>;

struct IhRingState {
  bool enabled = false;
  bool overflow_enable = false;
  std::uint64_t base_paddr = 0;
  std::uint32_t size_dwords = 0;  // 2^RB_SIZE
  std::uint32_t wptr = 0;         // dword index
  bool overflow = false;          // RB_OVERFLOW
  std::optional<std::uint64_t> wptr_writeback_paddr;
  std::uint64_t written = 0, dropped = 0;
  // What IH_RB_WPTR reads: OFFSET (bits 2..17) = wptr, RB_OVERFLOW bit 0.
  std::uint32_t wptr_register() const { return (wptr << 2) | (overflow ? 1u : 0u); }
};

// Writes `entry` at the ring's wptr unless the ring is disabled (or full without overflow
// enable). Returns whether written.
bool ih_push(IhRingState &ring, std::uint32_t rptr_dwords, hw::am::VramAccess &vram,
             const IhDwords &entry);

// d0 = client | source << 8 | ring << 16 | vmid << 24; d4..d7 = context 0..3.
IhDwords ih_entry_dwords(unsigned client, unsigned source, std::uint32_t ctx0 = 0,
                         std::uint32_t ctx1 = 0, unsigned ring_id = 0, unsigned vmid = 0);
// SQ error of `type` (0 EDC_FUE, 1 ILLEGAL_INST, 2 MEMVIOL, 3 EDC_FED): SOC21 client GFX (10),
// source 239, encoding 2 in ctx1 bits 6..7, type in ctx0 bits 21..24; SOC15 client SE0SH, encoding
// in ctx0 bits 26..27 (the SOC15 error type assembly is open, §11).
IhDwords ih_sq_error_entry(hw::am::IhSoc soc, unsigned type);
// UTCL2 fault: SOC21 client GRBM_CP (20), source 0 (the §19.3 golden d0 = 0x14); SOC15 client
// UTCL2 (27), source 0.
IhDwords ih_utcl2_fault_entry(hw::am::IhSoc soc, unsigned vmid = 0);
// CP_EOP_INTERRUPT (181) from GRBM_CP with the RELEASE_MEM context id.
IhDwords ih_eop_entry(hw::am::IhSoc soc, std::uint32_t context);
// SDMA_TRAP: SOC21 client GFX (10) source 49; SOC15 client SDMA0 (8) source 224.
IhDwords ih_sdma_trap_entry(hw::am::IhSoc soc, std::uint32_t context);

}  // namespace wavescope::hw::sim::am
