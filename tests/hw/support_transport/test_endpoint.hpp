#pragma once
// A trivial PCIe endpoint for transport tests: Navi31's config space (PcieConfigSpace) and a BAR5
// of plain 32-bit registers, with one FIFO register whose every read returns the next value (like
// ROM_DATA's auto-increment), a link switch, and counters of what reached it.

#include <cstdint>
#include <map>
#include <vector>

#include "wavescope/hw/transport/pcie_config_space.hpp"
#include "wavescope/hw/transport/pcie_endpoint_model.hpp"

namespace wavescope::testing {

class TestEndpoint final : public hw::PcieEndpointModel {
public:
  static constexpr std::uint64_t kFifoOffset = 0x5A3C8;

  explicit TestEndpoint(hw::PcieFunctionIdentity identity = hw::navi31_pcie_identity())
      : config_(identity) {}

  std::uint32_t config_read(std::uint32_t offset, unsigned width) override {
    return config_.read(offset, width);
  }
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override {
    ++config_writes;
    config_.write(offset, value, width);
  }
  std::uint32_t bar_read32(unsigned bar, std::uint64_t offset) override {
    if (!link) return 0xFFFFFFFFu;
    ++bar_reads;
    if (bar == 5 && offset == kFifoOffset) return fifo_next++;
    const auto it = registers.find({bar, offset});
    return it == registers.end() ? 0 : it->second;
  }
  void bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) override {
    if (!link) return;
    ++bar_writes;
    registers[{bar, offset}] = value;
  }
  bool link_up() const override { return link; }

  hw::PcieConfigSpace &config() { return config_; }

  std::map<std::pair<unsigned, std::uint64_t>, std::uint32_t> registers;
  std::uint32_t fifo_next = 0x1000;
  bool link = true;
  std::uint64_t bar_reads = 0;
  std::uint64_t bar_writes = 0;
  std::uint64_t config_writes = 0;

private:
  hw::PcieConfigSpace config_;
};

}  // namespace wavescope::testing
