#include "sim/am/gpu_mmu.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr std::uint32_t kStatusMappingError = 1u << 8, kStatusRw = 1u << 18;
constexpr std::uint32_t kStatusWalkerError = 1u << 1;  // WALKER_ERROR field = 1

[[noreturn]] void fault(std::uint64_t va, bool write, int level, std::uint64_t entry,
                        std::string reason, std::uint32_t status) {
  MmuFault f;
  f.va = va;
  f.write = write;
  f.level = level;
  f.entry = entry;
  f.reason = std::move(reason);
  f.status = status | (write ? kStatusRw : 0u);
  throw MmuFaultError(std::move(f));
}
}  // namespace

MmuFaultError::MmuFaultError(MmuFault fault)
    : std::runtime_error(fmt::format("GPU page fault at VA {:#x} ({}{}, level {}, entry {:#x})",
                                     fault.va, fault.write ? "write, " : "read, ", fault.reason,
                                     fault.level, fault.entry)),
      fault_(std::move(fault)) {}

MmuTranslation mmu_translate(const VramAccess &vram, const MmuConfig &c, std::uint64_t va,
                             bool write, std::vector<MmuWalkStep> *steps) {
  if (c.aperture_high > c.aperture_low && va >= c.aperture_low && va < c.aperture_high) {
    // The system aperture: an MC address of this GPU's VRAM, not translated.
    if (const auto paddr = mc_to_paddr(c, va)) {
      if (steps) steps->clear();
      return {*paddr, false, 0x1000, -1};
    }
  }
  if (!c.enabled) fault(va, write, -1, 0, "context disabled", kStatusWalkerError);
  const std::uint64_t start = c.start_page << 12, end = (c.end_page << 12) | 0xFFF;
  if (va < start || va > end) fault(va, write, -1, 0, "range", kStatusWalkerError);
  const std::uint64_t rel = va - start;
  auto to_paddr = [&](std::uint64_t xgmi, int level, std::uint64_t entry) {
    if (xgmi < c.paddr_base || xgmi - c.paddr_base >= c.vram_size)
      fault(va, write, level, entry, fmt::format("{:#x} is not in this GPU's VRAM", xgmi),
            kStatusWalkerError);
    return xgmi - c.paddr_base;
  };
  if ((c.page_table_base & hw::am::kPteValid) == 0)
    fault(va, write, 0, c.page_table_base, "page table base not valid", kStatusWalkerError);
  std::uint64_t table = to_paddr(c.page_table_base & hw::am::kPteAddressMask, 0, c.page_table_base);
  for (int level = 0; level < hw::am::kPageTableLevels; ++level) {
    const unsigned shift = 39 - 9 * static_cast<unsigned>(level);
    const unsigned index = static_cast<unsigned>(rel >> shift) & 0x1FF;
    if (level == 0 && (rel >> 48) != 0) fault(va, write, 0, 0, "range", kStatusWalkerError);
    const std::uint64_t entry = vram.read64(table + index * 8ull);
    if (steps) steps->push_back({level, table, index, entry});
    if ((entry & hw::am::kPteValid) == 0)
      fault(va, write, level, entry, "invalid PDE/PTE", kStatusMappingError);
    const std::uint64_t address = entry & hw::am::kPteAddressMask;
    if (hw::am::pte_is_leaf(c.generation, level, entry)) {
      const std::uint64_t coverage = hw::am::pt_entry_coverage(level);
      const bool system = (entry & hw::am::kPteSystem) != 0;
      const std::uint64_t base = address & ~(coverage - 1);
      MmuTranslation t;
      t.system = system;
      t.level = level;
      t.page_bytes = coverage;
      t.address = system ? base + (rel & (coverage - 1))
                         : to_paddr(base, level, entry) + (rel & (coverage - 1));
      return t;
    }
    table = to_paddr(address, level, entry);
  }
  fault(va, write, hw::am::kPtb, 0, "walk ran past the PTB", kStatusWalkerError);
}

std::optional<std::uint64_t> mc_to_paddr(const MmuConfig &c, std::uint64_t mc) {
  const std::uint64_t base = c.fb_base + c.paddr_base;
  if (mc < base || mc - base >= c.vram_size) return std::nullopt;
  return mc - base;
}

VramAccess &GpuMemory::space(std::uint64_t address, bool system) const {
  if (!system) return vram_;
  if (!system_)
    throw Error(ErrorKind::Device,
                fmt::format("the fake GPU has no host memory for system address {:#x}", address));
  return *system_;
}

std::uint8_t GpuMemory::read8(std::uint64_t address, bool system) const {
  const std::uint64_t word = space(address, system).read64(address & ~7ull);
  return static_cast<std::uint8_t>(word >> (8 * (address & 7)));
}

void GpuMemory::write8(std::uint64_t address, bool system, std::uint8_t value) {
  auto &s = space(address, system);
  const std::uint64_t at = address & ~7ull;
  const unsigned shift = 8 * static_cast<unsigned>(address & 7);
  std::uint64_t word = s.read64(at);
  word = (word & ~(0xFFull << shift)) | std::uint64_t{value} << shift;
  s.write64(at, word);
}

std::uint64_t GpuMemory::read64(std::uint64_t address, bool system) const {
  return space(address, system).read64(address);
}

void GpuMemory::write64(std::uint64_t address, bool system, std::uint64_t value) {
  space(address, system).write64(address, value);
}

std::uint32_t GpuMemory::read32(std::uint64_t address, bool system) const {
  const std::uint64_t word = space(address, system).read64(address & ~7ull);
  return static_cast<std::uint32_t>(address & 4 ? word >> 32 : word);
}

void GpuMemory::write32(std::uint64_t address, bool system, std::uint32_t value) {
  auto &s = space(address, system);
  const std::uint64_t at = address & ~7ull;
  std::uint64_t word = s.read64(at);
  if (address & 4)
    word = (word & 0xFFFF'FFFFull) | std::uint64_t{value} << 32;
  else
    word = (word & ~0xFFFF'FFFFull) | value;
  s.write64(at, word);
}

MmuTranslation GpuAddressSpace::page(std::uint64_t va, bool write) {
  ++translated_;
  try {
    return mmu_translate(memory_.vram(), config_, va, write);
  } catch (const MmuFaultError &e) {
    if (!sink_ || !config_.default_page) throw;
    sink_(e.fault());
    ++redirected_;
    return {*config_.default_page + (va & 0xFFF), false, 0x1000, -1};
  }
}

std::uint32_t GpuAddressSpace::read32(std::uint64_t va) {
  if (va % 4 != 0)
    throw Error(ErrorKind::Internal, fmt::format("unaligned dword read at VA {:#x}", va));
  const auto t = page(va, false);
  return memory_.read32(t.address, t.system);
}

void GpuAddressSpace::write32(std::uint64_t va, std::uint32_t value) {
  if (va % 4 != 0)
    throw Error(ErrorKind::Internal, fmt::format("unaligned dword write at VA {:#x}", va));
  const auto t = page(va, true);
  memory_.write32(t.address, t.system, value);
}

std::uint64_t GpuAddressSpace::read64(std::uint64_t va) {
  return std::uint64_t{read32(va)} | std::uint64_t{read32(va + 4)} << 32;
}

void GpuAddressSpace::write64(std::uint64_t va, std::uint64_t value) {
  write32(va, static_cast<std::uint32_t>(value));
  write32(va + 4, static_cast<std::uint32_t>(value >> 32));
}

std::vector<std::uint32_t> GpuAddressSpace::read_dwords(std::uint64_t va, std::size_t count) {
  std::vector<std::uint32_t> out;
  out.reserve(count);
  std::size_t i = 0;
  while (i < count) {
    const auto t = page(va + i * 4, false);
    const std::uint64_t in_page = 0x1000 - ((va + i * 4) & 0xFFF);
    const std::size_t n = std::min<std::size_t>(count - i, in_page / 4);
    for (std::size_t k = 0; k < n; ++k) out.push_back(memory_.read32(t.address + k * 4, t.system));
    i += n;
  }
  return out;
}

void GpuAddressSpace::copy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes) {
  // Translate every page first (a fault leaves the destination untouched), then copy through a
  // buffer, so overlapping ranges behave as memmove.
  std::vector<std::uint8_t> buffer;
  buffer.reserve(bytes);
  for (std::uint64_t done = 0; done < bytes;) {
    const auto t = page(src + done, false);
    const std::uint64_t n = std::min(bytes - done, 0x1000 - ((src + done) & 0xFFF));
    std::uint64_t k = 0;
    for (; k < n && ((t.address + k) & 7) != 0; ++k)
      buffer.push_back(memory_.read8(t.address + k, t.system));
    for (; k + 8 <= n; k += 8) {
      const std::uint64_t w = memory_.read64(t.address + k, t.system);
      for (unsigned b = 0; b < 8; ++b) buffer.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    }
    for (; k < n; ++k) buffer.push_back(memory_.read8(t.address + k, t.system));
    done += n;
  }
  std::vector<MmuTranslation> pages;
  for (std::uint64_t done = 0; done < bytes;) {
    pages.push_back(page(dst + done, true));
    done += std::min(bytes - done, 0x1000 - ((dst + done) & 0xFFF));
  }
  std::uint64_t done = 0;
  for (const auto &t : pages) {
    const std::uint64_t n = std::min(bytes - done, 0x1000 - ((dst + done) & 0xFFF));
    std::uint64_t k = 0;
    // Whole aligned words where both sides allow it.
    for (; k < n && ((t.address + k) & 7) != 0; ++k)
      memory_.write8(t.address + k, t.system, buffer[done + k]);
    for (; k + 8 <= n; k += 8) {
      std::uint64_t w = 0;
      for (unsigned b = 0; b < 8; ++b) w |= std::uint64_t{buffer[done + k + b]} << (8 * b);
      memory_.write64(t.address + k, t.system, w);
    }
    for (; k < n; ++k) memory_.write8(t.address + k, t.system, buffer[done + k]);
    done += n;
  }
}

}  // namespace wavescope::hw::sim::am
