#include "usb/simulated_asm24_bridge.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw {
namespace {

using namespace asm24;

constexpr std::uint32_t kCommand = 0x04;
constexpr std::uint32_t kBar0 = 0x10;

std::uint32_t load_le(std::span<const std::uint8_t> bytes, std::size_t at, unsigned width = 4) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= std::uint32_t(bytes[at + i]) << (8 * i);
  return v;
}

void store_le(std::span<std::uint8_t> bytes, std::size_t at, std::uint32_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i) bytes[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

UsbStatus status_of(UsbFaultEffect effect) {
  switch (effect) {
  case UsbFaultEffect::Io: return UsbStatus::Io;
  case UsbFaultEffect::Stall: return UsbStatus::Pipe;
  case UsbFaultEffect::Timeout: return UsbStatus::Timeout;
  case UsbFaultEffect::NoDevice: return UsbStatus::NoDevice;
  case UsbFaultEffect::Overflow: return UsbStatus::Overflow;
  case UsbFaultEffect::Short: return UsbStatus::Short;
  }
  return UsbStatus::Other;
}

// Bridge ports: 0-1 the ASM24's own (synthetic ids), 2-3 Navi31's upstream/downstream switch.
void init_bridge(std::array<std::uint8_t, 4096> &cfg, unsigned bus) {
  cfg.fill(0);
  const std::uint32_t ids =
      bus < 2 ? (0x1B21u | 0x2464u << 16) : (0x1002u | (bus == 2 ? 0x1478u : 0x1479u) << 16);
  store_le(cfg, 0, ids, 4);
  store_le(cfg, 0x08, 0x06040000u, 4);  // PCI-to-PCI bridge
  cfg[0x0E] = 0x01;                     // type-1 header
}

bool bridge_register_writable(std::uint32_t offset) {
  return offset == 0x04 || offset == 0x05 || (offset >= 0x18 && offset < 0x30) || offset == 0x3E ||
         offset == 0x3F || offset == 0x0C || offset == 0x0D;
}

}  // namespace

SimulatedAsm24Bridge::SimulatedAsm24Bridge(PcieEndpointModel &gpu, Clock &clock,
                                           SimulatedAsm24BridgeOptions options)
    : gpu_(gpu), clock_(clock), options_(std::move(options)), xdata_(0x10000, 0),
      sram_(kSramSize, 0) {
  for (unsigned b = 0; b < kBridgeCount; ++b) init_bridge(bridges_[b], b);
  if (options_.emulate_gpu_config_space) gpu_config_.emplace(navi31_pcie_identity());
}

std::string SimulatedAsm24Bridge::description() const {
  return fmt::format("{} (simulated ASM24 bridge ADD1:0001)", options_.label);
}

std::uint8_t SimulatedAsm24Bridge::xdata(std::uint16_t address) const {
  if (address >= kXdataSram) return sram_[address - kXdataSram];
  return xdata_[address];
}

std::uint32_t SimulatedAsm24Bridge::bridge_config(unsigned bus, std::uint32_t offset,
                                                  unsigned width) const {
  if (bus >= kBridgeCount || offset + width > 4096) return 0;
  return load_le(bridges_[bus], offset, width);
}

std::string SimulatedAsm24Bridge::transfer_name(UsbTransferKind kind, const UsbControlSetup *setup,
                                                std::size_t length) const {
  if (setup)
    return fmt::format("{}: {} {:#04x} (wValue {:#06x}, wIndex {}), {} bytes", options_.label,
                       to_string(kind), setup->request, setup->value, setup->index, length);
  return fmt::format("{}: {} on {:#04x}, {} bytes", options_.label, to_string(kind),
                     kind == UsbTransferKind::BulkIn ? kBulkIn : kBulkOut, length);
}

void SimulatedAsm24Bridge::begin_transfer(UsbTransferKind kind, const UsbControlSetup *setup,
                                          unsigned /*timeout_ms*/, std::size_t /*length*/,
                                          std::optional<UsbFault> &fault) {
  ++counters_.transfers;
  clock_.sleep(options_.transfer_latency);
  fault = faults_.on_transfer(kind, setup);
}

void SimulatedAsm24Bridge::fail(UsbFaultEffect effect, UsbTransferKind /*kind*/,
                                unsigned timeout_ms, std::string_view what) {
  ++counters_.failed_transfers;
  if (effect == UsbFaultEffect::Timeout) clock_.sleep(std::chrono::milliseconds(timeout_ms));
  throw_usb_error(status_of(effect), what);
}

// ---- control transfers ----

void SimulatedAsm24Bridge::control_out(const UsbControlSetup &setup,
                                       std::span<const std::uint8_t> data, unsigned timeout_ms) {
  std::optional<UsbFault> fault;
  begin_transfer(UsbTransferKind::ControlOut, &setup, timeout_ms, data.size(), fault);
  const auto what = [&] { return transfer_name(UsbTransferKind::ControlOut, &setup, data.size()); };
  // A failed control OUT never reached the firmware: nothing is executed.
  if (fault) fail(fault->effect, UsbTransferKind::ControlOut, timeout_ms, what());
  if (setup.request_type != kRequestTypeOut) fail(UsbFaultEffect::Stall, {}, timeout_ms, what());
  switch (setup.request) {
  case kWriteXdata:
    if (setup.value >= kXdataSram)
      sram_[setup.value - kXdataSram] = static_cast<std::uint8_t>(setup.index);
    else
      xdata_[setup.value] = static_cast<std::uint8_t>(setup.index);
    return;
  case kPcieRequest:
    if (data.size() != 12) fail(UsbFaultEffect::Stall, {}, timeout_ms, what());
    handle_pcie_request(setup, data);
    return;
  case kSramDma: handle_sram_arm(setup); return;
  case kPciePower: set_power(setup.value != 0); return;
  default: fail(UsbFaultEffect::Stall, {}, timeout_ms, what());
  }
}

std::vector<std::uint8_t> SimulatedAsm24Bridge::control_in(const UsbControlSetup &setup,
                                                           std::size_t length,
                                                           unsigned timeout_ms) {
  std::optional<UsbFault> fault;
  begin_transfer(UsbTransferKind::ControlIn, &setup, timeout_ms, length, fault);
  const auto what = [&] { return transfer_name(UsbTransferKind::ControlIn, &setup, length); };
  std::vector<std::uint8_t> reply;
  if (setup.request_type != kRequestTypeIn) {
    if (fault) fail(fault->effect, {}, timeout_ms, what());
    fail(UsbFaultEffect::Stall, {}, timeout_ms, what());
  }
  if (setup.request == kReadXdata && length <= 4096 && setup.value + length <= 0x10000) {
    for (std::size_t i = 0; i < length; ++i)
      reply.push_back(xdata(static_cast<std::uint16_t>(setup.value + i)));
  } else if (setup.request == kPcieRequest && completion_ && length == 8) {
    reply.assign(completion_->begin(), completion_->end());
    completion_.reset();  // consumed, whether or not the host receives it
  } else {
    if (fault) fail(fault->effect, {}, timeout_ms, what());
    fail(UsbFaultEffect::Stall, {}, timeout_ms, what());
  }
  if (fault) {
    if (fault->effect != UsbFaultEffect::Short) fail(fault->effect, {}, timeout_ms, what());
    reply.resize(std::min(reply.size(), fault->short_length));
  }
  return reply;
}

void SimulatedAsm24Bridge::handle_pcie_request(const UsbControlSetup &setup,
                                               std::span<const std::uint8_t> data) {
  const std::uint8_t fmt_type = static_cast<std::uint8_t>(setup.value & 0xFF);
  const std::uint8_t enables = static_cast<std::uint8_t>(setup.value >> 8);
  const std::uint64_t address = load_le(data, 0) | std::uint64_t(load_le(data, 4)) << 32;
  const std::uint32_t value = load_le(data, 8);
  const auto refuse = [&] {
    fail(UsbFaultEffect::Stall, {}, kPcieRequestTimeoutMs,
         transfer_name(UsbTransferKind::ControlOut, &setup, data.size()));
  };
  armed_.reset();  // a new request replaces whatever was armed
  switch (setup.index) {
  case kModeSingleTlp: handle_single_tlp(fmt_type, enables, address, value); return;
  case kModeStreamWrite:
  case kModeStreamRead: {
    const bool write = setup.index == kModeStreamWrite;
    if (fmt_type != (write ? kMemoryWrite64 : kMemoryRead64) || enables != 0x0F || address % 4 ||
        value == 0 || value > kMaxStreamBytes / 4)
      refuse();
    armed_ = Armed{write ? Armed::Kind::StreamWrite : Armed::Kind::StreamRead, address,
                   std::size_t(value) * 4};
    return;
  }
  default: refuse();
  }
}

void SimulatedAsm24Bridge::handle_single_tlp(std::uint8_t fmt_type, std::uint8_t enables,
                                             std::uint64_t address, std::uint32_t value) {
  ++counters_.tlp_requests;
  completion_.reset();
  const bool posted = is_posted(fmt_type);
  const auto complete = [&](std::uint32_t data, CompletionStatus status) {
    completion_ = encode_completion(data, static_cast<std::uint8_t>(status), 0);
  };
  if (!posted) {
    if (const auto rs = faults_.take_return_status()) {
      completion_ = encode_completion(0, 0, *rs);  // the bridge did not execute the request
      return;
    }
    if (const auto cs = faults_.take_completion_status()) {
      complete(0, *cs);
      return;
    }
  }
  const bool contiguous =
      enables != 0 && enables <= 0xF &&
      std::has_single_bit(static_cast<unsigned>((enables >> std::countr_zero(enables)) + 1));
  if (!contiguous) {
    if (!posted) complete(0, CompletionStatus::CompleterAbort);
    return;
  }
  const unsigned lane = std::countr_zero(enables);
  const unsigned width = std::popcount(enables);
  const std::uint32_t lane_mask = width == 4 ? 0xFFFFFFFFu : (1u << (8 * width)) - 1;
  if (is_config(fmt_type)) {
    const auto a = static_cast<std::uint32_t>(address);
    const auto target = route_config(fmt_type & 1, a >> 24, (a >> 19) & 0x1F, (a >> 16) & 7);
    if (!target) return complete(0, CompletionStatus::UnsupportedRequest);
    const std::uint32_t reg = (a & 0xFFC) + lane;
    if (fmt_type & 0x40) {
      target_config_write(*target, reg, (value >> (8 * lane)) & lane_mask, width);
      return complete(0, CompletionStatus::Success);
    }
    return complete(target_config_read(*target, reg, width) << (8 * lane),
                    CompletionStatus::Success);
  }
  if ((fmt_type & 0xDF) == 0x00) {  // memory read, 3DW or 4DW header
    const auto hit = route_memory(address & ~3ull);
    if (!hit) return complete(0, CompletionStatus::UnsupportedRequest);
    return complete(gpu_.bar_read32(hit->bar, hit->offset), CompletionStatus::Success);
  }
  if ((fmt_type & 0xDF) == 0x40) return memory_write32(address & ~3ull, value, enables);
  if (!posted) complete(0, CompletionStatus::UnsupportedRequest);  // messages need nothing
}

void SimulatedAsm24Bridge::handle_sram_arm(const UsbControlSetup &setup) {
  const bool read = setup.value & 0x8000;
  const std::size_t bytes = std::size_t(setup.value & 0x7FFF) * kSramSectorSize;
  const std::size_t start = read ? 0 : std::size_t(setup.index & 0xFF) * kSramSlotSize;
  armed_.reset();
  if (bytes == 0 || start + bytes > kSramSize)
    fail(UsbFaultEffect::Stall, {}, kControlTimeoutMs,
         transfer_name(UsbTransferKind::ControlOut, &setup, 0));
  armed_ = Armed{read ? Armed::Kind::SramRead : Armed::Kind::SramWrite, start, bytes};
}

void SimulatedAsm24Bridge::set_power(bool on) {
  powered_ = on;
  const auto training = faults_.training_failure();
  xdata_[kXdataLtssm] = on ? (training ? *training : kLtssmLinkUp) : 0;
  if (!on && gpu_config_) gpu_config_->reset();  // the GPU loses its BARs with its power
}

// ---- bulk transfers ----

void SimulatedAsm24Bridge::bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                                    unsigned timeout_ms) {
  std::optional<UsbFault> fault;
  begin_transfer(UsbTransferKind::BulkOut, nullptr, timeout_ms, data.size(), fault);
  const auto what = transfer_name(UsbTransferKind::BulkOut, nullptr, data.size());
  const auto armed = std::exchange(armed_, std::nullopt);  // consumed whatever happens
  // A failed or short bulk OUT is discarded: no write reaches the device.
  if (fault) fail(fault->effect, {}, timeout_ms, what);
  const bool matches =
      endpoint == kBulkOut && armed && armed->bytes == data.size() &&
      (armed->kind == Armed::Kind::StreamWrite || armed->kind == Armed::Kind::SramWrite);
  if (!matches) fail(UsbFaultEffect::Stall, {}, timeout_ms, what);
  if (armed->kind == Armed::Kind::SramWrite) {
    std::copy(data.begin(), data.end(),
              sram_.begin() + static_cast<std::ptrdiff_t>(armed->address));
    return;
  }
  ++counters_.stream_writes;
  for (std::size_t i = 0; i < data.size(); i += 4)
    memory_write32(armed->address + i, load_le(data, i));
}

std::vector<std::uint8_t> SimulatedAsm24Bridge::bulk_in(std::uint8_t endpoint, std::size_t length,
                                                        unsigned timeout_ms) {
  std::optional<UsbFault> fault;
  begin_transfer(UsbTransferKind::BulkIn, nullptr, timeout_ms, length, fault);
  const auto what = transfer_name(UsbTransferKind::BulkIn, nullptr, length);
  const auto armed = std::exchange(armed_, std::nullopt);
  const bool matches =
      endpoint == kBulkIn && armed && armed->bytes == length &&
      (armed->kind == Armed::Kind::StreamRead || armed->kind == Armed::Kind::SramRead);
  if (!matches) {
    if (fault) fail(fault->effect, {}, timeout_ms, what);
    fail(armed ? UsbFaultEffect::Stall : UsbFaultEffect::Timeout, {}, timeout_ms, what);
  }
  std::vector<std::uint8_t> data(length);
  if (armed->kind == Armed::Kind::SramRead) {
    std::copy_n(sram_.begin() + static_cast<std::ptrdiff_t>(armed->address), length, data.begin());
  } else {
    // The PCIe reads happen (with their side effects) even if the transfer then fails.
    ++counters_.stream_reads;
    for (std::size_t i = 0; i < length; i += 4)
      store_le(data, i, memory_read32(armed->address + i), 4);
  }
  if (fault) {
    if (fault->effect != UsbFaultEffect::Short) fail(fault->effect, {}, timeout_ms, what);
    data.resize(std::min(data.size(), fault->short_length));
  }
  return data;
}

// ---- PCIe routing ----

bool SimulatedAsm24Bridge::link_alive() const {
  return powered_ && !faults_.link_down() && gpu_.link_up();
}

std::optional<SimulatedAsm24Bridge::ConfigTarget>
SimulatedAsm24Bridge::route_config(bool type1, unsigned bus, unsigned device,
                                   unsigned function) const {
  if (device != 0 || function != 0) return std::nullopt;
  if (!type1) return bus == 0 ? std::optional(ConfigTarget{false, 0}) : std::nullopt;
  // Walk the physical chain: below bridge p sits bridge p+1, below bridge 3 the GPU.
  for (unsigned p = 0; p < kBridgeCount; ++p) {
    if (p >= 2 && !link_alive()) return std::nullopt;
    const unsigned secondary = bridges_[p][0x19];
    const unsigned subordinate = bridges_[p][0x1A];
    if (secondary == 0 || bus < secondary || bus > subordinate) return std::nullopt;
    if (bus != secondary) continue;
    const unsigned child = p + 1;
    if (child >= 2 && !link_alive()) return std::nullopt;
    return child == kBridgeCount ? ConfigTarget{true, 0} : ConfigTarget{false, child};
  }
  return std::nullopt;
}

std::uint32_t SimulatedAsm24Bridge::target_config_read(const ConfigTarget &t, std::uint32_t offset,
                                                       unsigned width) {
  if (!t.gpu) return load_le(bridges_[t.bridge], offset, width);
  if (gpu_config_) return gpu_config_->read(offset, width);
  const std::uint32_t value = gpu_.config_read(offset, width);
  if (offset >= kBar0 && offset < kBar0 + 24 && offset % 4 == 0 && width == 4) {
    const unsigned slot = (offset - kBar0) / 4;
    if (bar_sizing_[slot]) bar_masks_[slot] = value;
    bar_sizing_[slot] = false;
  }
  return value;
}

void SimulatedAsm24Bridge::target_config_write(const ConfigTarget &t, std::uint32_t offset,
                                               std::uint32_t value, unsigned width) {
  if (!t.gpu) {
    for (unsigned i = 0; i < width; ++i)
      if (bridge_register_writable(offset + i))
        bridges_[t.bridge][offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
    return;
  }
  if (gpu_config_) return gpu_config_->write(offset, value, width);
  if (offset < kBar0 + 24 && offset + width > kBar0) {
    const unsigned slot = (offset - std::min(offset, kBar0)) / 4;
    bar_sizing_[slot] = offset % 4 == 0 && width == 4 && value == 0xFFFFFFFFu;
  }
  gpu_.config_write(offset, value, width);
}

bool SimulatedAsm24Bridge::bridges_forward(std::uint64_t address) const {
  for (unsigned p = 0; p < kBridgeCount; ++p) {
    const auto &cfg = bridges_[p];
    if (!(cfg[kCommand] & 0x2)) return false;
    const std::uint64_t mem_base = std::uint64_t(load_le(cfg, 0x20, 2) & 0xFFF0) << 16;
    const std::uint64_t mem_limit = (std::uint64_t(load_le(cfg, 0x22, 2) & 0xFFF0) << 16) | 0xFFFFF;
    const std::uint64_t pref_base = (std::uint64_t(load_le(cfg, 0x24, 2) & 0xFFF0) << 16) |
                                    std::uint64_t(load_le(cfg, 0x28)) << 32;
    const std::uint64_t pref_limit = (std::uint64_t(load_le(cfg, 0x26, 2) & 0xFFF0) << 16) |
                                     0xFFFFF | std::uint64_t(load_le(cfg, 0x2C)) << 32;
    const bool in_mem = address >= mem_base && address <= mem_limit && mem_base <= mem_limit;
    const bool in_pref = address >= pref_base && address <= pref_limit && pref_base <= pref_limit;
    if (!in_mem && !in_pref) return false;
  }
  return true;
}

std::optional<SimulatedAsm24Bridge::BarHit>
SimulatedAsm24Bridge::route_memory(std::uint64_t address) {
  if (!link_alive() || !bridges_forward(address)) return std::nullopt;
  if (gpu_config_) {
    const auto hit = gpu_config_->decode_memory(address);
    return hit ? std::optional(BarHit{hit->bar, hit->offset}) : std::nullopt;
  }
  if (!(gpu_.config_read(kCommand, 2) & 0x2)) return std::nullopt;
  for (unsigned i = 0; i < 6; ++i) {
    const std::uint32_t lower = gpu_.config_read(kBar0 + 4 * i, 4);
    if ((lower & 1) || !bar_masks_[i]) continue;  // I/O, or never sized by the host
    const std::uint32_t mask = *bar_masks_[i];
    const bool is64 = (mask & 0x6) == 0x4 && i < 5;
    const std::uint64_t upper_mask = is64 ? bar_masks_[i + 1].value_or(0xFFFFFFFFu) : 0xFFFFFFFFu;
    const std::uint64_t size = ~((upper_mask << 32) | (mask & ~0xFu)) + 1;
    std::uint64_t base = lower & ~0xFull;
    if (is64) base |= std::uint64_t(gpu_.config_read(kBar0 + 4 * (i + 1), 4)) << 32;
    if (size != 0 && base != 0 && address >= base && address - base < size)
      return BarHit{i, address - base};
    if (is64) ++i;
  }
  return std::nullopt;
}

std::uint32_t SimulatedAsm24Bridge::memory_read32(std::uint64_t address) {
  const auto hit = route_memory(address);
  if (!hit) {
    ++counters_.unclaimed_reads;
    return 0xFFFFFFFFu;  // what a root port returns for a failed non-posted read
  }
  return gpu_.bar_read32(hit->bar, hit->offset);
}

void SimulatedAsm24Bridge::memory_write32(std::uint64_t address, std::uint32_t value,
                                          std::uint8_t enables) {
  const auto hit = route_memory(address);
  if (!hit) {
    ++counters_.dropped_writes;
    return;
  }
  if (enables == 0xF) return gpu_.bar_write32(hit->bar, hit->offset, value);
  std::uint32_t mask = 0;
  for (unsigned b = 0; b < 4; ++b)
    if (enables & (1u << b)) mask |= 0xFFu << (8 * b);
  const std::uint32_t old = gpu_.bar_read32(hit->bar, hit->offset);
  gpu_.bar_write32(hit->bar, hit->offset, (old & ~mask) | (value & mask));
}

}  // namespace wavescope::hw
