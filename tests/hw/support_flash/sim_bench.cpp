#include "sim_bench.hpp"

#include "sim/sim_pci_function.hpp"
#include "sim/sim_random.hpp"
#include "usb/simulated_asm24_bridge.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"

namespace wavescope::testing {

using namespace wavescope::hw;

SimBench::SimBench(sim::SimConfig config, std::vector<std::uint8_t> flash, Path path)
    : board_(std::make_unique<sim::Navi31Board>(std::move(config), clock_, std::move(flash))),
      path_(path) {
  reopen();
}

SimBench::~SimBench() = default;

void SimBench::reopen() {
  function_.reset();
  bridge_ = nullptr;
  if (path_ == Path::SimPci) {
    function_ = std::make_unique<sim::SimPciFunction>("bench", *board_, clock_,
                                                      board_->config().op_cost_native);
    return;
  }
  SimulatedAsm24BridgeOptions options;
  options.transfer_latency = board_->config().op_cost / 2;  // control + bulk per operation
  auto bridge = std::make_unique<SimulatedAsm24Bridge>(*board_, clock_, options);
  bridge_ = bridge.get();
  Asm24Options transport;
  transport.id = "sim:bench";
  function_ = std::make_unique<Asm24Transport>(std::move(bridge), clock_, transport);
}

UsbFaultPlan *SimBench::usb_faults() { return bridge_ ? &bridge_->faults() : nullptr; }

std::vector<std::uint8_t> SimBench::blank_flash() {
  return std::vector<std::uint8_t>(navi31::kFlashSize, 0xFF);
}

std::vector<std::uint8_t> SimBench::random_flash(std::uint64_t seed) {
  sim::SimRandom random(seed);
  std::vector<std::uint8_t> bytes(navi31::kFlashSize);
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    const std::uint64_t v = random.next();
    for (int k = 0; k < 8; ++k) bytes[i + k] = static_cast<std::uint8_t>(v >> (8 * k));
  }
  return bytes;
}

const std::vector<std::uint8_t> &SimBench::test_image() {
  static const std::vector<std::uint8_t> image = ifwi::make_test_ifwi_image();
  return image;
}

sim::SimConfig usb_timing_config() {
  sim::SimConfig c;
  c.op_cost_native = c.op_cost;
  return c;
}

}  // namespace wavescope::testing
