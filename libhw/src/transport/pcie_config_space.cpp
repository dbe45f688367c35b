#include "wavescope/hw/transport/pcie_config_space.hpp"

namespace wavescope::hw {
namespace {

constexpr std::uint32_t kCommand = 0x04;
constexpr std::uint32_t kBar0 = 0x10;
constexpr std::uint16_t kWritableCommandBits = 0x0547;  // IO, MEM, MASTER, PARITY, SERR, INTx off

// Which BAR dword a config offset hits: lower half of BAR n, or the upper half of a 64-bit BAR.
struct BarSlot {
  unsigned bar = 0;
  bool upper = false;
};

}  // namespace

PcieFunctionIdentity navi31_pcie_identity() {
  PcieFunctionIdentity id;
  id.vendor_id = 0x1002;
  id.device_id = 0x744C;
  id.revision = 0xC8;
  id.class_code = 0x030000;
  id.subsystem_vendor_id = 0x1002;
  id.subsystem_id = 0x0E3B;
  id.bars[0] = {256ull << 20, true, true, false};
  id.bars[2] = {2ull << 20, true, true, false};
  id.bars[4] = {256, false, false, true};
  id.bars[5] = {1ull << 20, false, false, false};
  id.rebar_supported = 0x000FF000;  // bits 12..19: 256 MiB .. 32 GiB
  id.rebar_default_index = 8;       // 256 MiB
  return id;
}

PcieConfigSpace::PcieConfigSpace(PcieFunctionIdentity identity) : identity_(identity) { reset(); }

void PcieConfigSpace::reset() {
  regs_.fill(0);
  regs_[0] = identity_.vendor_id | std::uint32_t(identity_.device_id) << 16;
  regs_[2] = identity_.revision | identity_.class_code << 8;
  regs_[0x2C / 4] = identity_.subsystem_vendor_id | std::uint32_t(identity_.subsystem_id) << 16;
  regs_[0x34 / 4] = 0;  // no legacy capability list
  for (unsigned i = 0; i < 6; ++i) regs_[kBar0 / 4 + i] = 0;
  rebar_index_ = identity_.rebar_default_index;
  if (identity_.rebar_supported) {
    regs_[kRebarCapability / 4] = 0x15 | 1u << 16;  // id 0x15, version 1, next 0
    regs_[kRebarCapability / 4 + 1] = *identity_.rebar_supported;
  }
}

std::uint64_t PcieConfigSpace::bar_size(unsigned index) const {
  if (index >= 6) return 0;
  if (index == 0 && identity_.rebar_supported) return 1ull << (rebar_index_ + 20);
  return identity_.bars[index].size;
}

std::uint32_t PcieConfigSpace::bar_dword_value(unsigned index, std::uint32_t stored) const {
  // `index` is a dword slot 0..5: a BAR's lower half or a 64-bit BAR's upper half.
  if (index > 0 && identity_.bars[index - 1].is64 && bar_size(index - 1) > 0)
    return static_cast<std::uint32_t>(stored & ~((bar_size(index - 1) - 1) >> 32));
  const auto &spec = identity_.bars[index];
  const std::uint64_t size = bar_size(index);
  if (size == 0) return 0;
  if (spec.is_io) return (stored & ~static_cast<std::uint32_t>(size - 1) & ~0x3u) | 0x1;
  std::uint32_t type = (spec.is64 ? 0x4u : 0u) | (spec.prefetchable ? 0x8u : 0u);
  return (stored & ~static_cast<std::uint32_t>(size - 1) & ~0xFu) | type;
}

std::uint32_t PcieConfigSpace::dword(std::uint32_t offset) const {
  const std::uint32_t index = offset / 4;
  if (offset >= kBar0 && offset < kBar0 + 24)
    return bar_dword_value(index - kBar0 / 4, regs_[index]);
  if (identity_.rebar_supported && offset == kRebarCapability + 8)
    return 0 | 1u << 5 | rebar_index_ << 8;  // BAR index 0, one resizable BAR, current size
  return regs_[index];
}

std::uint32_t PcieConfigSpace::read(std::uint32_t offset, unsigned width) const {
  if (offset >= 4096 || (width != 1 && width != 2 && width != 4) || (offset & 3) + width > 4)
    return 0;
  const std::uint32_t value = dword(offset & ~3u) >> (8 * (offset & 3));
  return width == 4 ? value : value & ((1u << (8 * width)) - 1);
}

void PcieConfigSpace::write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  if (offset >= 4096 || (width != 1 && width != 2 && width != 4) || (offset & 3) + width > 4)
    return;
  const unsigned lane = offset & 3;
  const std::uint32_t mask = (width == 4 ? 0xFFFFFFFFu : ((1u << (8 * width)) - 1)) << (8 * lane);
  write_dword(offset & ~3u, value << (8 * lane), mask);
}

void PcieConfigSpace::write_dword(std::uint32_t offset, std::uint32_t value, std::uint32_t mask) {
  const std::uint32_t index = offset / 4;
  const std::uint32_t merged = (regs_[index] & ~mask) | (value & mask);
  if (offset == kCommand) {
    regs_[index] = (regs_[index] & 0xFFFF0000u) | (merged & kWritableCommandBits);
  } else if (offset >= kBar0 && offset < kBar0 + 24) {
    regs_[index] = merged;  // the read path applies the size mask and type bits
  } else if (identity_.rebar_supported && offset == kRebarCapability + 8) {
    const unsigned requested = (merged >> 8) & 0x1F;
    if (*identity_.rebar_supported & (1u << (requested + 4))) rebar_index_ = requested;
  } else if (offset == 0x0C || offset == 0x3C) {
    regs_[index] = merged;  // cache line, latency timer, interrupt line
  }
  // Everything else (ids, class, capabilities) is read-only.
}

std::uint64_t PcieConfigSpace::bar_address(unsigned index) const {
  if (index >= 6 || bar_size(index) == 0) return 0;
  const std::uint32_t lower = dword(kBar0 + 4 * index);
  const auto &spec = identity_.bars[index];
  if (spec.is_io) return lower & ~0x3u;
  std::uint64_t address = lower & ~0xFu;
  if (spec.is64 && index < 5) address |= std::uint64_t(dword(kBar0 + 4 * (index + 1))) << 32;
  return address;
}

BarInfo PcieConfigSpace::bar_info(unsigned index) const {
  BarInfo info;
  if (index >= 6 || bar_size(index) == 0) return info;
  const auto &spec = identity_.bars[index];
  info.bus_address = bar_address(index);
  info.size = bar_size(index);
  info.is64 = spec.is64;
  info.prefetchable = spec.prefetchable;
  info.is_io = spec.is_io;
  info.present = info.bus_address != 0;
  return info;
}

std::optional<PcieConfigSpace::Hit> PcieConfigSpace::decode_memory(std::uint64_t address) const {
  if (!memory_enabled()) return std::nullopt;
  for (unsigned i = 0; i < 6; ++i) {
    const auto &spec = identity_.bars[i];
    const std::uint64_t size = bar_size(i);
    if (size == 0 || spec.is_io) continue;
    const std::uint64_t base = bar_address(i);
    if (base != 0 && address >= base && address - base < size) return Hit{i, address - base};
    if (spec.is64) ++i;  // the upper half is not a BAR of its own
  }
  return std::nullopt;
}

}  // namespace wavescope::hw
