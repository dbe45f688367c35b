#pragma once
// The direct path to a fake GPU (`sim-am:NAME`): a PciFunction whose BARs call the chip model, as
// a native PCIe card's mapped resources would. Opening it does what host firmware and AM's
// sysfs setup do (§1.2 step 7): BAR0 resized to its largest Resizable-BAR size, BARs assigned,
// memory decoding on. Each Mmio call is one transport operation and advances the clock by the
// chip's op_cost_native.

#include <array>
#include <memory>
#include <string>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw::sim::am {

class FakeGpuPciFunction final : public PciFunction {
public:
  FakeGpuPciFunction(std::string id, FakeGpu &gpu);
  ~FakeGpuPciFunction() override;

  std::string id() const override { return id_; }
  TransportKind kind() const override { return TransportKind::Simulated; }
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  BarInfo bar(unsigned index) override;
  Mmio &map_bar(unsigned index) override;
  void close() override {}

private:
  class Bar;
  std::string id_;
  FakeGpu &gpu_;
  std::array<std::unique_ptr<Bar>, 6> bars_;
};

}  // namespace wavescope::hw::sim::am
