#pragma once
// The `sim-pci` transport: the simulated board as a native-PCIe-style function whose BAR5 calls
// the board model directly (transport.md C.4 point 1). Each Mmio call is one transport operation
// and advances the shared clock by op_cost, as the simulator's time model requires (§10.1).
// Opening it assigns BAR5 and enables memory decoding, as host firmware and the kernel would.

#include <memory>
#include <string>

#include "sim/navi31_board.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw::sim {

class SimPciFunction final : public PciFunction {
public:
  // `op_cost` is charged per transport operation (BAR access or config access).
  SimPciFunction(std::string name, Navi31Board &board, Clock &clock, Clock::Duration op_cost);
  ~SimPciFunction() override;

  std::string id() const override { return "sim-pci:" + name_; }
  TransportKind kind() const override { return TransportKind::Simulated; }
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  BarInfo bar(unsigned index) override;
  Mmio &map_bar(unsigned index) override;
  void close() override {}

private:
  class Bar5;
  std::string name_;
  Navi31Board &board_;
  Clock &clock_;
  Clock::Duration op_cost_;
  std::unique_ptr<Bar5> bar5_;
};

}  // namespace wavescope::hw::sim
