#include "sim/am/fake_gpu_pci_function.hpp"

#include <bit>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

namespace {
// Where host firmware would put the BARs.
constexpr std::uint64_t kBar0Address = 0x80'0000'0000;  // 512 GiB: room for a 256 GiB BAR0
constexpr std::uint64_t kBar2Address = 0x7F'0000'0000;
constexpr std::uint32_t kBar5Address = 0xFC00'0000;
}  // namespace

class FakeGpuPciFunction::Bar final : public Mmio {
public:
  Bar(FakeGpu &gpu, unsigned index, std::string id)
      : gpu_(gpu), index_(index), id_(std::move(id)) {}

  std::uint64_t size() const override { return gpu_.config_space().bar_size(index_); }

  std::uint32_t read32(std::uint64_t offset) override {
    check(offset, 4, "read32");
    charge();
    ++stats_.reads;
    stats_.bytes_read += 4;
    const auto v = gpu_.bar_read32(index_, offset);
    trace(MmioAccess::Kind::Read32, offset, v, 4);
    return v;
  }
  void write32(std::uint64_t offset, std::uint32_t value) override {
    check(offset, 4, "write32");
    charge();
    ++stats_.writes;
    stats_.bytes_written += 4;
    gpu_.bar_write32(index_, offset, value);
    trace(MmioAccess::Kind::Write32, offset, value, 4);
  }
  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override {
    check(offset, 4 * dwords, "read_block");
    charge();
    ++stats_.block_reads;
    stats_.bytes_read += 4 * dwords;
    std::vector<std::uint32_t> out(dwords);
    for (std::size_t i = 0; i < dwords; ++i) out[i] = gpu_.bar_read32(index_, offset + 4 * i);
    trace(MmioAccess::Kind::ReadBlock, offset, out.empty() ? 0 : out[0],
          static_cast<std::uint32_t>(4 * dwords));
    return out;
  }
  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override {
    check(offset, 4 * values.size(), "write_block");
    charge();
    ++stats_.block_writes;
    stats_.bytes_written += 4 * values.size();
    for (std::size_t i = 0; i < values.size(); ++i)
      gpu_.bar_write32(index_, offset + 4 * i, values[i]);
    trace(MmioAccess::Kind::WriteBlock, offset, values.empty() ? 0 : values[0],
          static_cast<std::uint32_t>(4 * values.size()));
  }
  void flush() override {}
  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook hook) override { hook_ = std::move(hook); }

private:
  void check(std::uint64_t offset, std::uint64_t length, const char *what) const {
    if (offset % 4 != 0 || length % 4 != 0 || length == 0 || offset > size() ||
        length > size() - offset)
      throw Error(ErrorKind::Internal,
                  fmt::format("{} BAR{} {} at 0x{:X} of {} bytes is not dword-aligned inside the "
                              "0x{:X}-byte BAR",
                              id_, index_, what, offset, length, size()));
  }
  void charge() {
    const auto cost = gpu_.config().op_cost_native;
    gpu_.clock().sleep(cost);
    stats_.latency_ns += static_cast<std::uint64_t>(cost.count());
  }
  void trace(MmioAccess::Kind kind, std::uint64_t offset, std::uint32_t value,
             std::uint32_t length) {
    if (hook_) hook_(MmioAccess{kind, offset, value, length});
  }

  FakeGpu &gpu_;
  unsigned index_;
  std::string id_;
  TransportStats stats_;
  MmioTraceHook hook_;
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
