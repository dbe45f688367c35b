#include "wavescope/hw/usb/asm24_transport.hpp"

#include <bit>

#include <fmt/format.h>

#include "usb/asm24_wire.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/usb/asm24_protocol.hpp"

namespace wavescope::hw {
namespace {

using namespace asm24;

constexpr std::uint32_t kCommand = 0x04;
constexpr std::uint32_t kBusNumbers = 0x18;
constexpr std::uint32_t kMemoryBase = 0x20;
constexpr std::uint32_t kMemoryLimit = 0x22;
constexpr std::uint32_t kPrefBase = 0x24;
constexpr std::uint32_t kPrefLimit = 0x26;
constexpr std::uint32_t kPrefBaseUpper = 0x28;
constexpr std::uint32_t kPrefLimitUpper = 0x2C;
constexpr std::uint32_t kBar0 = 0x10;
constexpr std::uint32_t kExtendedCapabilities = 0x100;
constexpr std::uint16_t kResizableBarCapability = 0x15;
constexpr std::uint8_t kCommandIo = 0x1, kCommandMemory = 0x2, kCommandMaster = 0x4;

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

// One memory BAR behind the bridge: each call is one streaming request plus one bulk transfer.
class Asm24BarRegion final : public Mmio {
public:
  Asm24BarRegion(Asm24Transport::Wire &wire, unsigned index, const BarInfo &info)
      : wire_(wire), index_(index), base_(info.bus_address), size_(info.size) {}

  std::uint64_t size() const override { return size_; }

  std::uint32_t read32(std::uint64_t offset) override {
    const auto op = name("read32", offset);
    check(offset, 4, op);
    const auto start = begin();
    const std::uint32_t value = wire_.stream_read(base_ + offset, 1, op)[0];
    finish(start, stats_.reads, 4, 0);
    trace({MmioAccess::Kind::Read32, offset, value, 4});
    return value;
  }

  void write32(std::uint64_t offset, std::uint32_t value) override {
    const auto op = name("write32", offset);
    check(offset, 4, op);
    const auto start = begin();
    wire_.stream_write(base_ + offset, std::span(&value, 1), op);
    finish(start, stats_.writes, 0, 4);
    trace({MmioAccess::Kind::Write32, offset, value, 4});
  }

  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override {
    const auto op = name("read_block", offset, dwords);
    check(offset, 4 * dwords, op);
    if (dwords == 0) return {};
    const auto start = begin();
    auto values = wire_.stream_read(base_ + offset, dwords, op);
    finish(start, stats_.block_reads, 4 * dwords, 0);
    trace({MmioAccess::Kind::ReadBlock, offset, values[0], static_cast<std::uint32_t>(4 * dwords)});
    return values;
  }

  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override {
    const auto op = name("write_block", offset, values.size());
    check(offset, 4 * values.size(), op);
    if (values.empty()) return;
    const auto start = begin();
    wire_.stream_write(base_ + offset, values, op);
    finish(start, stats_.block_writes, 0, 4 * values.size());
    trace({MmioAccess::Kind::WriteBlock, offset, values[0],
           static_cast<std::uint32_t>(4 * values.size())});
  }

  // Streaming writes are posted; a read from the same BAR completes only after them.
  void flush() override {
    const auto op = name("flush (read of offset 0)", 0);
    const auto start = begin();
    const std::uint32_t value = wire_.stream_read(base_, 1, op)[0];
    finish(start, stats_.reads, 4, 0);
    trace({MmioAccess::Kind::Flush, 0, value, 4});
  }

  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook hook) override { hook_ = std::move(hook); }

private:
  OperationName name(const char *what, std::uint64_t offset, std::size_t dwords = 0) const {
    return [=, this] {
      return dwords ? fmt::format("{} of {} dwords at BAR{}+{:#x} (PCIe {:#x})", what, dwords,
                                  index_, offset, base_ + offset)
                    : fmt::format("{} of BAR{}+{:#x} (PCIe {:#x})", what, index_, offset,
                                  base_ + offset);
    };
  }
  void check(std::uint64_t offset, std::uint64_t bytes, const OperationName &op) const {
    if (offset % 4 != 0)
      throw Error(ErrorKind::Internal, fmt::format("{}: offset is not dword-aligned", op()));
    if (offset > size_ || bytes > size_ - offset)
      throw Error(ErrorKind::Internal, fmt::format("{}: {} bytes run past the end of the {} BAR",
                                                   op(), bytes, size_text(size_)));
  }
  struct Start {
    Clock::TimePoint time;
    std::uint64_t usb_requests;
  };
  Start begin() const { return {wire_.clock().now(), wire_.usb_requests()}; }
  void finish(const Start &start, std::uint64_t &counter, std::uint64_t read,
              std::uint64_t written) {
    ++counter;
    stats_.bytes_read += read;
    stats_.bytes_written += written;
    stats_.usb_requests += wire_.usb_requests() - start.usb_requests;
    stats_.latency_ns += static_cast<std::uint64_t>((wire_.clock().now() - start.time).count());
  }
  void trace(const MmioAccess &access) {
    if (hook_) hook_(access);
  }

  Asm24Transport::Wire &wire_;
  unsigned index_;
  std::uint64_t base_;
  std::uint64_t size_;
  TransportStats stats_;
  MmioTraceHook hook_;
};

}  // namespace

Asm24Transport::Asm24Transport(std::unique_ptr<UsbDevice> usb, Clock &clock, Asm24Options options)
    : options_(std::move(options)), clock_(clock),
      wire_(std::make_unique<Wire>(std::move(usb), clock, options_)) {
  init_controller();
  bring_up();
}

Asm24Transport::~Asm24Transport() = default;

void Asm24Transport::note(std::string line) {
  if (options_.log) options_.log(line);
  bringup_log_.push_back(std::move(line));
}

// B.4.1: the custom firmware boots with PCIe powered off; power on and wait for link training.
void Asm24Transport::init_controller() {
  const OperationName op = [] { return std::string("controller init (link training)"); };
  std::uint8_t ltssm = wire_->xdata_read(kXdataLtssm, 1, op)[0];
  if (ltssm == kLtssmLinkUp) {
    note("PCIe link already up (LTSSM 0x78)");
    return;
  }
  note(fmt::format("PCIe link down (LTSSM {:#04x}): powering the slot on (0xF3)", ltssm));
  wire_->pcie_power(true, op);
  const auto deadline = clock_.now() + options_.link_training_timeout;
  for (;;) {
    ltssm = wire_->xdata_read(kXdataLtssm, 1, op)[0];
    if (ltssm == kLtssmLinkUp) break;
    if (clock_.now() >= deadline)
      throw Error(
          ErrorKind::Device,
          fmt::format(
              "{}: the PCIe link behind the bridge did not train: XDATA 0xB450 "
              "(LTSSM state) is {:#04x} after {} ms, expected 0x78 — check that the "
              "GPU has power and is seated",
              options_.id, ltssm,
              std::chrono::duration_cast<std::chrono::milliseconds>(options_.link_training_timeout)
                  .count()));
    clock_.sleep(options_.link_poll_interval);
  }
  note("PCIe link trained (LTSSM 0x78)");
}

void Asm24Transport::bring_up() {
  if (options_.minimal_bringup)
    note("minimal bring-up: BAR5 only, MEMORY without MASTER, no resize");
  for (unsigned bus = 0; bus < kBridgeCount; ++bus) program_bridge(bus);
  const std::uint32_t id = pcie_config_read(kGpuBus, 0, 4);
  if (id == 0xFFFFFFFFu)
    throw Error(ErrorKind::Device,
                fmt::format("{}: device not responding (vendor/device at bus 4 reads all ones) — "
                            "link down, D3, or removed",
                            options_.id));
  if (options_.expected_gpu_id != 0 && id != options_.expected_gpu_id)
    throw Error(ErrorKind::Device,
                fmt::format("{}: the GPU behind the bridge is {:04x}:{:04x}, not {:04x}:{:04x} "
                            "(Navi31); refusing to program its BARs",
                            options_.id, id & 0xFFFF, id >> 16, options_.expected_gpu_id & 0xFFFF,
                            options_.expected_gpu_id >> 16));
  note(fmt::format("GPU at bus 4: {:04x}:{:04x}", id & 0xFFFF, id >> 16));
  if (!options_.minimal_bringup) resize_bar0();
  assign_bars();
  const std::uint8_t command =
      options_.minimal_bringup ? kCommandMemory : (kCommandIo | kCommandMemory | kCommandMaster);
  pcie_config_write(kGpuBus, kCommand, command, 1);
  note(fmt::format("GPU COMMAND <- {:#04x}{}", command,
                   options_.minimal_bringup ? " (MEMORY)"
                                            : " (IO | MEMORY | MASTER: bus mastering on)"));
}

// B.7 step 1: bus numbers (primary 0 as the reference writes), windows, COMMAND.
void Asm24Transport::program_bridge(unsigned bus) {
  pcie_config_write(bus, kBusNumbers, (bus + 1) << 8 | kGpuBus << 16, 4);
  pcie_config_write(bus, kMemoryBase, static_cast<std::uint32_t>(kNonPrefetchableBase >> 16), 2);
  pcie_config_write(bus, kMemoryLimit, 0xFFFF, 2);
  pcie_config_write(bus, kPrefBase, static_cast<std::uint32_t>((kPrefetchableBase >> 16) & 0xFFFF),
                    2);
  pcie_config_write(bus, kPrefLimit, 0xFFFF, 2);
  pcie_config_write(bus, kPrefBaseUpper, static_cast<std::uint32_t>(kPrefetchableBase >> 32), 4);
  pcie_config_write(bus, kPrefLimitUpper, 0xFFFFFFFFu, 4);
  const std::uint8_t command =
      options_.minimal_bringup ? kCommandMemory : (kCommandIo | kCommandMemory | kCommandMaster);
  pcie_config_write(bus, kCommand, command, 1);
  note(fmt::format("bridge at bus {}: secondary {}, subordinate 4, windows {:#x}.. and {:#x}.., "
                   "COMMAND <- {:#04x}",
                   bus, bus + 1, kNonPrefetchableBase, kPrefetchableBase, command));
}

// B.7 step 2: the Resizable BAR capability resizes BAR0 to the largest supported size.
void Asm24Transport::resize_bar0() {
  std::uint32_t offset = kExtendedCapabilities;
  for (int guard = 0; offset != 0 && guard < 64; ++guard) {
    const std::uint32_t header = pcie_config_read(kGpuBus, offset, 4);
    if (header == 0 || header == 0xFFFFFFFFu) return;
    if ((header & 0xFFFF) == kResizableBarCapability) {
      const std::uint32_t supported = pcie_config_read(kGpuBus, offset + 4, 4) >> 4;
      if (supported == 0) return;
      const unsigned largest = static_cast<unsigned>(std::bit_width(supported)) - 1;
      const std::uint32_t control = pcie_config_read(kGpuBus, offset + 8, 4);
      pcie_config_write(kGpuBus, offset + 8, (control & ~0x1F00u) | largest << 8, 4);
      note(fmt::format("GPU Resizable BAR at {:#x}: BAR0 resized to {}", offset,
                       size_text(1ull << (largest + 20))));
      return;
    }
    offset = (header >> 20) & 0xFFC;
  }
}

// B.7 step 3: size every memory BAR, assign it from the matching pool, naturally aligned.
void Asm24Transport::assign_bars() {
  std::uint64_t pools[2] = {kNonPrefetchableBase, kPrefetchableBase};
  for (unsigned index = options_.minimal_bringup ? 5 : 0; index < 6; ++index) {
    const std::uint32_t reg = kBar0 + 4 * index;
    const std::uint32_t original = pcie_config_read(kGpuBus, reg, 4);
    if (original & 1) {  // I/O BAR: not used behind the bridge
      bars_[index].is_io = true;
      continue;
    }
    pcie_config_write(kGpuBus, reg, 0xFFFFFFFFu, 4);
    const std::uint32_t lower = pcie_config_read(kGpuBus, reg, 4);
    const bool is64 = ((lower >> 1) & 3) == 2;
    std::uint64_t upper = 0xFFFFFFFFu;
    if (is64 && index < 5) {
      pcie_config_write(kGpuBus, reg + 4, 0xFFFFFFFFu, 4);
      upper = pcie_config_read(kGpuBus, reg + 4, 4);
    }
    const std::uint64_t size = ~((upper << 32) | (lower & ~0xFull)) + 1;
    if (size == 0) {
      pcie_config_write(kGpuBus, reg, 0, 4);
      continue;
    }
    const bool prefetchable = lower & 0x8;
    std::uint64_t &pool = pools[prefetchable ? 1 : 0];
    const std::uint64_t address = (pool + size - 1) / size * size;
    pcie_config_write(kGpuBus, reg, static_cast<std::uint32_t>(address), 4);
    if (is64) pcie_config_write(kGpuBus, reg + 4, static_cast<std::uint32_t>(address >> 32), 4);
    pool = address + (size + kBarPoolAlignment - 1) / kBarPoolAlignment * kBarPoolAlignment;
    bars_[index] = {address, size, is64, prefetchable, false, true};
    note(fmt::format("GPU BAR{}: {} {}{} at {:#x}", index, size_text(size),
                     is64 ? "64-bit" : "32-bit", prefetchable ? " prefetchable" : "", address));
    if (is64) ++index;  // the upper half is not a BAR of its own
  }
}

std::uint32_t Asm24Transport::pcie_config_read(unsigned bus, std::uint32_t offset, unsigned width) {
  const OperationName op = [=] {
    return fmt::format("config read of bus {} offset {:#x} ({} bytes)", bus, offset, width);
  };
  if (width != 1 && width != 2 && width != 4)
    throw Error(ErrorKind::Internal, fmt::format("{}: width must be 1, 2 or 4", op()));
  const std::uint32_t address = config_address(bus, 0, 0, offset & ~3u) | (offset & 3);
  return wire_->single_tlp(bus == 0 ? kConfigRead0 : kConfigRead1, address, width, 0,
                           options_.tlp_retries, op);
}

void Asm24Transport::pcie_config_write(unsigned bus, std::uint32_t offset, std::uint32_t value,
                                       unsigned width) {
  const OperationName op = [=] {
    return fmt::format("config write of {:#x} to bus {} offset {:#x} ({} bytes)", value, bus,
                       offset, width);
  };
  if (width != 1 && width != 2 && width != 4)
    throw Error(ErrorKind::Internal, fmt::format("{}: width must be 1, 2 or 4", op()));
  const std::uint32_t address = config_address(bus, 0, 0, offset & ~3u) | (offset & 3);
  // Config writes are non-posted: the bridge returns a completion, and a write it did not
  // execute (return status) is safe to resend.
  wire_->single_tlp(bus == 0 ? kConfigWrite0 : kConfigWrite1, address, width, value,
                    options_.tlp_retries, op);
}

std::uint32_t Asm24Transport::config_read(std::uint32_t offset, unsigned width) {
  return pcie_config_read(kGpuBus, offset, width);
}

void Asm24Transport::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  pcie_config_write(kGpuBus, offset, value, width);
}

std::vector<std::uint8_t> Asm24Transport::xdata_read(std::uint16_t address, std::size_t length) {
  return wire_->xdata_read(address, length, [=] {
    return fmt::format("XDATA read of {} bytes at {:#06x}", length, address);
  });
}

void Asm24Transport::xdata_write(std::uint16_t address, std::uint8_t value) {
  wire_->xdata_write(address, value,
                     [=] { return fmt::format("XDATA write at {:#06x}", address); });
}

BarInfo Asm24Transport::bar(unsigned index) { return index < 6 ? bars_[index] : BarInfo{}; }

Mmio &Asm24Transport::map_bar(unsigned index) {
  if (closed_) throw Error(ErrorKind::Internal, fmt::format("{} is closed", options_.id));
  if (index >= 6 || !bars_[index].present || bars_[index].is_io)
    throw Error(
        ErrorKind::Device,
        fmt::format("{}: BAR{} was not assigned by the bring-up{}", options_.id, index,
                    options_.minimal_bringup ? " (minimal bring-up assigns BAR5 only)" : ""));
  if (!regions_[index])
    regions_[index] = std::make_unique<Asm24BarRegion>(*wire_, index, bars_[index]);
  return *regions_[index];
}

const TransportStats &Asm24Transport::stats() const {
  stats_ = {};
  for (const auto &region : regions_) {
    if (!region) continue;
    const auto &s = region->stats();
    stats_.reads += s.reads;
    stats_.writes += s.writes;
    stats_.block_reads += s.block_reads;
    stats_.block_writes += s.block_writes;
    stats_.bytes_read += s.bytes_read;
    stats_.bytes_written += s.bytes_written;
    stats_.latency_ns += s.latency_ns;
  }
  stats_.usb_requests = wire_->usb_requests();
  return stats_;
}

void Asm24Transport::close() {
  if (closed_) return;
  closed_ = true;
  wire_->close();
  options_.lock.reset();
}

}  // namespace wavescope::hw
