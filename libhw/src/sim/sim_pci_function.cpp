#include "sim/sim_pci_function.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"

namespace wavescope::hw::sim {

namespace {
constexpr std::uint32_t kFirmwareBar5Address = 0xFCC00000;  // where host firmware would put it
}

class SimPciFunction::Bar5 final : public Mmio {
public:
  Bar5(Navi31Board &board, Clock &clock, Clock::Duration op_cost)
      : board_(board), clock_(clock), op_cost_(op_cost) {}

  std::uint64_t size() const override { return navi31::kBar5Size; }

  std::uint32_t read32(std::uint64_t offset) override {
    check(offset, 4, "read32");
    charge();
    ++stats_.reads;
    stats_.bytes_read += 4;
    const std::uint32_t value = decoding() ? board_.bar_read32(5, offset) : navi31::kAllOnes;
    trace(MmioAccess::Kind::Read32, offset, value, 4);
    return value;
  }

  void write32(std::uint64_t offset, std::uint32_t value) override {
    check(offset, 4, "write32");
    charge();
    ++stats_.writes;
    stats_.bytes_written += 4;
    if (decoding()) board_.bar_write32(5, offset, value);
    trace(MmioAccess::Kind::Write32, offset, value, 4);
  }

  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override {
    check(offset, 4 * dwords, "read_block");
    charge();
    ++stats_.block_reads;
    stats_.bytes_read += 4 * dwords;
    std::vector<std::uint32_t> out = decoding()
                                         ? board_.bar_read_block(5, offset, dwords)
                                         : std::vector<std::uint32_t>(dwords, navi31::kAllOnes);
    trace(MmioAccess::Kind::ReadBlock, offset, out.empty() ? 0 : out[0],
          static_cast<std::uint32_t>(4 * dwords));
    return out;
  }

  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override {
    check(offset, 4 * values.size(), "write_block");
    charge();
    ++stats_.block_writes;
    stats_.bytes_written += 4 * values.size();
    if (decoding())
      for (std::size_t i = 0; i < values.size(); ++i)
        board_.bar_write32(5, offset + 4 * i, values[i]);
    trace(MmioAccess::Kind::WriteBlock, offset, values.empty() ? 0 : values[0],
          static_cast<std::uint32_t>(4 * values.size()));
  }

  void flush() override {
    // A read of a harmless register orders after every posted write.
    (void)read32(navi31::kRomStatus);
  }

  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook hook) override { hook_ = std::move(hook); }

private:
  void check(std::uint64_t offset, std::uint64_t length, const char *what) const {
    if (offset % 4 != 0 || length % 4 != 0 || length == 0 || offset + length > size())
      throw Error(ErrorKind::Internal,
                  fmt::format("sim-pci BAR5 {} at 0x{:X} of {} bytes is not dword-aligned inside "
                              "the 1 MiB BAR",
                              what, offset, length));
  }
  void charge() {
    clock_.sleep(op_cost_);
    stats_.latency_ns += static_cast<std::uint64_t>(op_cost_.count());
  }
  bool decoding() const { return board_.config_space().memory_enabled(); }
  void trace(MmioAccess::Kind kind, std::uint64_t offset, std::uint32_t value,
             std::uint32_t length) {
    if (hook_) hook_(MmioAccess{kind, offset, value, length});
  }

  Navi31Board &board_;
  Clock &clock_;
  Clock::Duration op_cost_;
  TransportStats stats_;
  MmioTraceHook hook_;
};

SimPciFunction::SimPciFunction(std::string name, Navi31Board &board, Clock &clock,
                               Clock::Duration op_cost)
    : name_(std::move(name)), board_(board), clock_(clock), op_cost_(op_cost),
      bar5_(std::make_unique<Bar5>(board, clock, op_cost)) {
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
