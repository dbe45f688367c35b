#include "wavescope/hw/am/memory_manager.hpp"

#include <array>
#include <mutex>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"

namespace wavescope::hw::am {

namespace {

constexpr std::uint64_t kPage = 0x1000;
std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::uint64_t DeviceVram::read64(std::uint64_t paddr) const {
  std::array<std::uint8_t, 8> b{};
  device_.read_vram(paddr, b);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | b[i];
  return v;
}

void DeviceVram::write64(std::uint64_t paddr, std::uint64_t value) {
  std::array<std::uint8_t, 8> b{};
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(value >> (8 * i));
  device_.write_vram(paddr, b);
}

void DeviceVram::zero(std::uint64_t paddr, std::uint64_t size) { device_.zero_vram(paddr, size); }

MemoryManager::MemoryManager(AmDevice &device, std::uint64_t usable, bool reserve_ptable,
                             PtGeneration generation, bool zero_root)
    : device_(device), vram_(device), boot_(kBootSize, 0, "boot"),
      ptable_(reserve_ptable ? round_up(usable / 512, 1ull << 20) : 0, kBootSize, "ptable"),
      pa_(usable - kBootSize - (reserve_ptable ? round_up(usable / 512, 1ull << 20) : 0),
          kBootSize + (reserve_ptable ? round_up(usable / 512, 1ull << 20) : 0), "pa"),
      reserve_ptable_(reserve_ptable), generation_(generation) {
  root_paddr_ = palloc(kPage, kPage, zero_root, true, "root page table");
}

PageTable &MemoryManager::page_table() {
  // The page tables below the root come from the ptable region on a small BAR, else the pool.
  // The root was zero-filled when allocated, unless attaching to a GPU AM booted: then its
  // tables are adopted, not wiped (fini, AMSMI, `am ring --submit`, `am vm --device`).
  if (!page_table_)
    page_table_ = std::make_unique<PageTable>(
        vram_, reserve_ptable_ ? ptable_ : pa_,
        PageTableConfig{generation_, root_paddr_, paddr_base_, 0, /*zero_root=*/false});
  return *page_table_;
}

MemoryManager::~MemoryManager() = default;

std::uint64_t MemoryManager::palloc(std::uint64_t size, std::uint64_t align, bool zero, bool boot,
                                    const std::string &owner, bool ptable) {
  if (boot != booting_)
    throw Error(ErrorKind::Usage,
                fmt::format("palloc of 0x{:X} bytes for {}: {} memory asked for {} booting "
                            "(boot memory is only for the boot, and only boot memory then)",
                            size, owner, boot ? "boot" : "general", booting_ ? "while" : "after"));
  auto &allocator = boot ? boot_ : (reserve_ptable_ && ptable ? ptable_ : pa_);
  const auto rounded = round_up(size, kPage);
  const auto paddr = allocator.alloc(rounded, align);
  if (zero) device_.zero_vram(paddr, size);
  allocations_.push_back({owner, paddr, rounded, align, boot});
  return paddr;
}

void MemoryManager::pfree(std::uint64_t paddr, bool ptable) {
  (reserve_ptable_ && ptable ? ptable_ : pa_).free(paddr);
}

VirtualMapping MemoryManager::map_range(std::uint64_t va, std::uint64_t size,
                                        std::vector<PhysChunk> chunks, AddrSpace space,
                                        bool uncached, bool snooped) {
  page_table().map_range(va, size, chunks, space, uncached, snooped);
  if (tlb_flush_) tlb_flush_();
  return {va, size, std::move(chunks), space, uncached};
}

void MemoryManager::unmap_range(std::uint64_t va, std::uint64_t size) {
  page_table().unmap_range(va, size);  // no TLB flush on unmap (§7.4)
}

VirtualMapping MemoryManager::valloc(std::uint64_t size, std::uint64_t align, bool uncached,
                                     bool contiguous, bool zero) {
  size = round_up(size, kPage);
  auto &va_allocator = process_va_allocator();
  const auto va = va_allocator.alloc(size, align);
  std::vector<PhysChunk> chunks;
  try {
    if (contiguous) {
      chunks.push_back({palloc(size, kPage, true, false, "valloc"), size});
    } else {
      // Powers of two from 2^39 down to 4 KiB; 2 MiB alignment from 2 MiB up (§6.3).
      unsigned shift = 39;
      std::uint64_t remaining = size;
      while (remaining > 0) {
        while ((1ull << shift) > remaining) --shift;
        const std::uint64_t chunk = 1ull << shift;
        try {
          chunks.push_back(
              {palloc(chunk, chunk >= (2ull << 20) ? (2ull << 20) : kPage, zero, false, "valloc"),
               chunk});
          remaining -= chunk;
        } catch (const Error &e) {
          if (e.kind() != ErrorKind::State || shift == 12)
            throw Error(ErrorKind::State,
                        fmt::format("valloc of 0x{:X} bytes: VRAM exhausted ({})", size, e.what()));
          --shift;
        }
      }
    }
    return map_range(va, size, chunks, AddrSpace::Phys, uncached);
  } catch (...) {
    for (const auto &c : chunks) pfree(c.address);
    va_allocator.free(va);
    throw;
  }
}

void MemoryManager::vfree(const VirtualMapping &m) {
  unmap_range(m.va, m.size);
  process_va_allocator().free(m.va);
  if (m.space == AddrSpace::Phys)
    for (const auto &c : m.chunks) pfree(c.address);
}

VaAllocator &process_va_allocator() {
  static VaAllocator allocator;
  return allocator;
}

}  // namespace wavescope::hw::am
