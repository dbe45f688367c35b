#pragma once
// The AM driver's VRAM (am-driver.md §6.1, §6.3): the partition into boot memory ([0, 32 MiB),
// only while booting), the page-table region (small BAR only), the general pool up to
// V = vram_size - reserved, and the reserved top; palloc/pfree on the TLSF allocators, valloc/vfree
// (a VA from the process's VA allocator, greedy power-of-two chunks, the mapping in the VMID-0
// page tables, then the GMC's TLB flush). Every palloc is recorded with its owner so the boot
// allocation table (§5.5) can be printed and compared.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"
#include "wavescope/hw/am/va_allocator.hpp"
#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::am {

class AmDevice;

// VRAM through the device's BAR0 (or its MM_INDEX window), for page tables.
class DeviceVram final : public VramAccess {
public:
  explicit DeviceVram(AmDevice &device) : device_(device) {}
  std::uint64_t read64(std::uint64_t paddr) const override;
  void write64(std::uint64_t paddr, std::uint64_t value) override;
  void zero(std::uint64_t paddr, std::uint64_t size) override;

private:
  AmDevice &device_;
};

struct MemoryAllocation {
  std::string owner;  // "root page table", "PSP KM ring", ...
  std::uint64_t paddr = 0, size = 0, align = 0;
  bool boot = false;
};

struct VirtualMapping {
  std::uint64_t va = 0, size = 0;
  std::vector<PhysChunk> chunks;
  AddrSpace space = AddrSpace::Phys;
  bool uncached = false;
};

class MemoryManager {
public:
  static constexpr std::uint64_t kBootSize = 32ull << 20;

  // `usable` = V (vram_size - reserved); `reserve_ptable` = no large BAR. The root page table is
  // the first boot allocation (zero-filled unless `zero_root` is false: AMSMI, fini).
  MemoryManager(AmDevice &device, std::uint64_t usable, bool reserve_ptable,
                PtGeneration generation, bool zero_root = true);
  // The XGMI address of paddr 0 (the GMC reads it); before the first mapping.
  void set_paddr_base(std::uint64_t base) { paddr_base_ = base; }
  ~MemoryManager();

  // Whether the driver is booting: boot allocations are allowed then, and only then (§6.1).
  void set_booting(bool booting) { booting_ = booting; }
  bool booting() const { return booting_; }

  // Size rounded up to 4 KiB. Error(Usage) when `boot` disagrees with the phase; Error(State)
  // when the allocator is exhausted.
  std::uint64_t palloc(std::uint64_t size, std::uint64_t align, bool zero, bool boot,
                       const std::string &owner, bool ptable = false);
  void pfree(std::uint64_t paddr, bool ptable = false);

  // After every map: the GMC's TLB flush of both hubs (set by the boot; none by default).
  void set_tlb_flush(std::function<void()> flush) { tlb_flush_ = std::move(flush); }
  VirtualMapping map_range(std::uint64_t va, std::uint64_t size, std::vector<PhysChunk> chunks,
                           AddrSpace space, bool uncached = false, bool snooped = false);
  void unmap_range(std::uint64_t va, std::uint64_t size);
  VirtualMapping valloc(std::uint64_t size, std::uint64_t align = 0x1000, bool uncached = false,
                        bool contiguous = false, bool zero = false);
  void vfree(const VirtualMapping &mapping);

  // The VMID-0 page tables, created on first use (the root page is not touched before).
  PageTable &page_table();
  std::uint64_t root_paddr() const { return root_paddr_; }
  const std::vector<MemoryAllocation> &allocations() const { return allocations_; }
  const TlsfAllocator &boot_allocator() const { return boot_; }
  const TlsfAllocator &ptable_allocator() const { return ptable_; }
  const TlsfAllocator &pa_allocator() const { return pa_; }

private:
  AmDevice &device_;
  DeviceVram vram_;
  TlsfAllocator boot_, ptable_, pa_;
  bool reserve_ptable_;
  PtGeneration generation_;
  std::uint64_t paddr_base_ = 0;
  bool booting_ = true;
  std::uint64_t root_paddr_ = 0;
  std::unique_ptr<PageTable> page_table_;
  std::function<void()> tlb_flush_;
  std::vector<MemoryAllocation> allocations_;
};

// The VA allocator every AM device of this process shares (§6.2.1).
VaAllocator &process_va_allocator();

}  // namespace wavescope::hw::am
