#pragma once
// What GPU page tables are written through: 64-bit little-endian words of this GPU's VRAM, by
// paddr (am-driver.md §0). The driver backs it with BAR0 (or the page-table region on a small
// BAR); tests and the simulator with SimulatedVram.

#include <cstdint>

namespace wavescope::hw::am {

class VramAccess {
public:
  virtual ~VramAccess() = default;
  virtual std::uint64_t read64(std::uint64_t paddr) const = 0;
  virtual void write64(std::uint64_t paddr, std::uint64_t value) = 0;
  // Zero-fills [paddr, paddr + size); both 8-byte aligned.
  virtual void zero(std::uint64_t paddr, std::uint64_t size) = 0;
};

}  // namespace wavescope::hw::am
