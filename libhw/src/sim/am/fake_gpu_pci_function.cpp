#include "sim/am/fake_gpu_pci_function.hpp"

#include <bit>

#include <fmt/format.h>

#include "sim/simulated_bar.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

namespace {
// Where host firmware would put the BARs.
constexpr std::uint64_t kBar0Address = 0x80'0000'0000;  // 512 GiB: room for a 256 GiB BAR0
constexpr std::uint64_t kBar2Address = 0x7F'0000'0000;
constexpr std::uint32_t kBar5Address = 0xFC00'0000;
}  // namespace

class FakeGpuPciFunction::Bar final : public SimulatedBar {
public:
  Bar(FakeGpu &gpu, unsigned index, const std::string &id)
      : SimulatedBar(fmt::format("{} BAR{}", id, index), gpu.clock()), gpu_(gpu), index_(index) {}

  std::uint64_t size() const override { return gpu_.config_space().bar_size(index_); }

private:
  Clock::Duration op_cost() const override { return gpu_.config().op_cost_native; }
  std::uint32_t model_read32(std::uint64_t offset) override {
    return gpu_.bar_read32(index_, offset);
  }
  void model_write32(std::uint64_t offset, std::uint32_t value) override {
    gpu_.bar_write32(index_, offset, value);
  }

  FakeGpu &gpu_;
  unsigned index_;
};

FakeGpuPciFunction::FakeGpuPciFunction(std::string id, FakeGpu &gpu)
    : id_(std::move(id)), gpu_(gpu) {
  auto &cs = gpu_.config_space();
  // Resizable BAR to its largest size (control register: size index in bits 8..13).
  if (const auto supported = cs.identity().rebar_supported; supported && *supported) {
    const unsigned largest = static_cast<unsigned>(std::bit_width(*supported >> 4) - 1);
    const std::uint32_t control = cs.read(PcieConfigSpace::kRebarCapability + 8, 4);
    cs.write(PcieConfigSpace::kRebarCapability + 8, (control & ~0x3F00u) | largest << 8, 4);
  }
  if (cs.bar_address(0) == 0) {
    cs.write(0x10, static_cast<std::uint32_t>(kBar0Address), 4);
    cs.write(0x14, static_cast<std::uint32_t>(kBar0Address >> 32), 4);
  }
  if (cs.bar_address(2) == 0) {
    cs.write(0x18, static_cast<std::uint32_t>(kBar2Address), 4);
    cs.write(0x1C, static_cast<std::uint32_t>(kBar2Address >> 32), 4);
  }
  if (cs.bar_address(5) == 0) cs.write(0x24, kBar5Address, 4);
  cs.write(0x04, cs.read(0x04, 2) | 0x2, 2);  // memory decoding (bus master is the driver's)
}

FakeGpuPciFunction::~FakeGpuPciFunction() = default;

std::uint32_t FakeGpuPciFunction::config_read(std::uint32_t offset, unsigned width) {
  gpu_.clock().sleep(gpu_.config().op_cost_native);
  return gpu_.config_read(offset, width);
}

void FakeGpuPciFunction::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  gpu_.clock().sleep(gpu_.config().op_cost_native);
  gpu_.config_write(offset, value, width);
}

BarInfo FakeGpuPciFunction::bar(unsigned index) {
  if (index > 5) return {};
  return gpu_.config_space().bar_info(index);
}

Mmio &FakeGpuPciFunction::map_bar(unsigned index) {
  if (index != 0 && index != 2 && index != 5)
    throw Error(ErrorKind::Usage,
                fmt::format("{}: BAR{} is not implemented (BAR0 VRAM, BAR2 doorbells, BAR5 "
                            "registers)",
                            id_, index));
  if (!bars_[index]) bars_[index] = std::make_unique<Bar>(gpu_, index, id_);
  return *bars_[index];
}

}  // namespace wavescope::hw::sim::am
