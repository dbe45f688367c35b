#include "sim/sim_pci_function.hpp"

#include <fmt/format.h>

#include "sim/simulated_bar.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"

namespace wavescope::hw::sim {

namespace {
constexpr std::uint32_t kFirmwareBar5Address = 0xFCC00000;  // where host firmware would put it
}

class SimPciFunction::Bar5 final : public SimulatedBar {
public:
  Bar5(std::string name, Navi31Board &board, Clock &clock, Clock::Duration op_cost)
      : SimulatedBar(std::move(name), clock), board_(board), op_cost_(op_cost) {}

  std::uint64_t size() const override { return navi31::kBar5Size; }
  void flush() override {
    // A read of a harmless register orders after every posted write.
    (void)read32(navi31::kRomStatus);
  }

private:
  Clock::Duration op_cost() const override { return op_cost_; }
  // A board that does not decode memory answers all ones and drops writes.
  std::uint32_t model_read32(std::uint64_t offset) override {
    return decoding() ? board_.bar_read32(5, offset) : navi31::kAllOnes;
  }
  void model_write32(std::uint64_t offset, std::uint32_t value) override {
    if (decoding()) board_.bar_write32(5, offset, value);
  }
  std::vector<std::uint32_t> model_read_block(std::uint64_t offset, std::size_t dwords) override {
    return decoding() ? board_.bar_read_block(5, offset, dwords)
                      : std::vector<std::uint32_t>(dwords, navi31::kAllOnes);
  }
  bool decoding() const { return board_.config_space().memory_enabled(); }

  Navi31Board &board_;
  Clock::Duration op_cost_;
};

SimPciFunction::SimPciFunction(std::string name, Navi31Board &board, Clock &clock,
                               Clock::Duration op_cost)
    : name_(std::move(name)), board_(board), clock_(clock), op_cost_(op_cost),
      bar5_(std::make_unique<Bar5>(id() + " BAR5", board, clock, op_cost)) {
  // What host firmware and the kernel's `enable` do for a native card: BAR5 gets an address and
  // memory decoding is on.
  if (board_.config_space().bar_address(5) == 0) board_.config_write(0x24, kFirmwareBar5Address, 4);
  board_.config_write(0x04, board_.config_read(0x04, 2) | 0x2, 2);
}

SimPciFunction::~SimPciFunction() = default;

std::uint32_t SimPciFunction::config_read(std::uint32_t offset, unsigned width) {
  clock_.sleep(op_cost_);
  return board_.config_read(offset, width);
}

void SimPciFunction::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  clock_.sleep(op_cost_);
  board_.config_write(offset, value, width);
}

BarInfo SimPciFunction::bar(unsigned index) {
  if (index > 5) return {};
  return board_.config_space().bar_info(index);
}

Mmio &SimPciFunction::map_bar(unsigned index) {
  if (index != navi31::kRegisterBar)
    throw Error(ErrorKind::Usage,
                fmt::format("{}: only BAR5 (registers) is simulated, not BAR{}", id(), index));
  return *bar5_;
}

}  // namespace wavescope::hw::sim
