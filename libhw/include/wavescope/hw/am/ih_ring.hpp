#pragma once
// The AM driver's interrupt handler block (am-driver.md §11): programming both IH rings, the
// handler that walks ring 0 from IH_RB_RPTR to IH_RB_WPTR.OFFSET and decides on each entry
// (ih_entry.hpp's verdict; UTCL2 faults read and clear the GC fault registers), the drain with its
// overflow clear, and the RAS status check in BIF_BX0_BIF_DOORBELL_INT_CNTL. RPTR is written as a
// dword index into the byte-offset field, as AM does (§22 item 4); the fake reads it the same way.

#include <cstdint>
#include <optional>
#include <vector>

#include "wavescope/hw/am/block_registers.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/ih_entry.hpp"

namespace wavescope::hw::am {

class VramAccess;

inline constexpr std::uint64_t kIhRingBytes = 256 * 1024;
inline constexpr std::uint32_t kIhRingDwords = kIhRingBytes / 4;

// Where the rings live (§5.5 rows 4-7), as paddrs.
struct IhRings {
  std::uint64_t ring0 = 0, ring0_wptr = 0, ring1 = 0, ring1_wptr = 0;
};

struct IhHandledEntry {
  std::uint32_t rptr = 0;  // dword index of the entry
  IhEntry entry;
  IhVerdict verdict;
  std::optional<GmcFault> fault;  // read for UTCL2 faults, before the clear
};

struct IhReport {
  std::uint32_t rptr = 0, wptr = 0;  // dword indices before the walk
  bool overflow = false;             // IH_RB_WPTR.RB_OVERFLOW was set (cleared by the drain)
  std::vector<IhHandledEntry> entries;
  bool ras_athub = false, ras_cntlr = false;  // fatal hardware errors seen (and cleared)
  bool error_state = false;  // any entry or RAS status that puts AM in its error state
};

// The rings as the registers describe them (IH_RB_BASE[_HI][_RING1] as MC addresses, ring 0's
// write-back page from IH_RB_WPTR_ADDR), turned into paddrs with the GMC's MC base — for a tool
// that attaches to a GPU AM booted. nullopt when ring 0 is not enabled; Error(Device) when its
// size is not AM's 256 KiB.
std::optional<IhRings> programmed_ih_rings(AmRegisters &regs, const GmcBlock &gmc);

class IhBlock {
public:
  IhBlock(AmRegisters &regs, VramAccess &vram, GmcBlock &gmc, const AmChipInfo &chip,
          IhRings rings);

  // §11: both rings (BASE, CNTL, ring 0's WPTR_ADDR, pointers, doorbell off), the storm and
  // flood controls (not on OSSSYS 4.4.2), then enable.
  void init_hw();
  // The handler: every entry from rptr to wptr, then the drain, then the RAS check.
  IhReport interrupt_handler();
  // RPTR = wptr offset; clears an overflow (RB_OVERFLOW, then WPTR_OVERFLOW_CLEAR pulsed).
  // Returns whether there was one.
  bool drain();

  IhSoc soc() const { return chip_.gc.major >= 11 ? IhSoc::Soc21 : IhSoc::Soc15; }
  const IhRings &rings() const { return rings_; }

private:
  AmRegisters &regs_;
  VramAccess &vram_;
  GmcBlock &gmc_;
  AmChipInfo chip_;
  IhRings rings_;
};

}  // namespace wavescope::hw::am
