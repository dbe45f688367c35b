#pragma once
// The AM blocks' access to an AmDevice: the register bus (dword reads and writes through the
// device — direct, RSMU or PCIE INDEX2, traced by the device — and writes to another AID through
// PCIE INDEX2), and VRAM as 64-bit words for page tables, MQDs and rings (through BAR0 or the
// MM_INDEX window, as the device reaches it).

#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/block_registers.hpp"
#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::am {

class AmDeviceBus final : public AmRegisterBus {
public:
  explicit AmDeviceBus(AmDevice &device) : device_(device) {}
  std::uint32_t read(std::uint64_t address) override { return device_.read_dword(address); }
  void write(std::uint64_t address, std::uint32_t value) override {
    device_.write_dword(address, value);
  }
  void write_aid(std::uint64_t address, std::uint32_t value, unsigned aid) override {
    device_.write_dword_index2(address, value, aid);
  }

private:
  AmDevice &device_;
};

class AmDeviceVram final : public VramAccess {
public:
  explicit AmDeviceVram(AmDevice &device) : device_(device) {}
  std::uint64_t read64(std::uint64_t paddr) const override {
    return std::uint64_t{device_.read_vram32(paddr)} | std::uint64_t{device_.read_vram32(paddr + 4)}
                                                           << 32;
  }
  void write64(std::uint64_t paddr, std::uint64_t value) override {
    device_.write_vram32(paddr, static_cast<std::uint32_t>(value));
    device_.write_vram32(paddr + 4, static_cast<std::uint32_t>(value >> 32));
  }
  void zero(std::uint64_t paddr, std::uint64_t size) override { device_.zero_vram(paddr, size); }

private:
  AmDevice &device_;  // reads go through the device's BAR, which is not const
};

}  // namespace wavescope::hw::am
