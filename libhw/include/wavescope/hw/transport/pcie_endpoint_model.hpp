#pragma once
// A simulated PCIe endpoint as a bridge or a simulated sysfs sees it: 4 KiB of config space and
// memory accesses routed to a BAR. The simulated Navi31 board implements it; the simulated ASM24
// bridge (and the sim-pci transport) drive it.

#include <cstdint>

namespace wavescope::hw {

class PcieEndpointModel {
public:
  virtual ~PcieEndpointModel() = default;
  virtual std::uint32_t config_read(std::uint32_t offset, unsigned width) = 0;
  virtual void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) = 0;
  // A 32-bit memory read/write at `offset` within BAR `bar` (as assigned through config space).
  // A model that is powered off or link-down returns 0xFFFFFFFF for reads and drops writes.
  virtual std::uint32_t bar_read32(unsigned bar, std::uint64_t offset) = 0;
  virtual void bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) = 0;
  // Whether the function's link is up as its upstream port sees it. A board that is powered off
  // or link-down answers config requests with Unsupported Request at the bridge (added for the
  // simulated ASM24 bridge; models without a link state keep the default).
  virtual bool link_up() const { return true; }
};

}  // namespace wavescope::hw
