#pragma once
// The fake GPU's view of memory through VMID 0 (am-driver.md §7.2, §7.3, §19.2 item 6): the
// hardware's page-table walk from the context-0 PT base (four levels of 512 entries at VA bits
// 39/30/21/12 of VA − PAGE_TABLE_START, leaves by the generation's rules: gfx9 TF/PDE_PTE, gfx10/11
// bit 54, gfx12 bit 63), XGMI → paddr, system (host) pages, and MC addresses through the FB
// aperture. The engines (CP, SDMA, IH) read and write through it; a failed translation throws
// MmuFaultError, which the GMC model latches into the fault registers.

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "wavescope/hw/am/pte_flags.hpp"

namespace wavescope::hw::am {
class VramAccess;
}

namespace wavescope::hw::sim::am {

using hw::am::PtGeneration;
using hw::am::VramAccess;

// What the GMC registers say about VMID 0 (read by the GMC model at each use).
struct MmuConfig {
  PtGeneration generation = PtGeneration::Gfx11;
  bool enabled = false;                        // VM_CONTEXT0_CNTL.ENABLE_CONTEXT
  std::uint64_t page_table_base = 0;           // PAGE_TABLE_BASE_ADDR (XGMI address | valid bit)
  std::uint64_t start_page = 0, end_page = 0;  // PAGE_TABLE_START/END_ADDR (VA >> 12)
  std::uint64_t paddr_base = 0;                // XGMI address of paddr 0
  std::uint64_t fb_base = 0, fb_end = 0;       // MC addresses of the framebuffer (FB_LOCATION)
  std::uint64_t vram_size = 0;
  // MC_VM_SYSTEM_APERTURE_LOW/HIGH_ADDR << 18: addresses in [low, high) are MC addresses of VRAM,
  // not translated (empty when low >= high).
  std::uint64_t aperture_low = 0, aperture_high = 0;
  // VM_L2_PROTECTION_FAULT_DEFAULT_ADDR as a paddr, when CONTEXT0_CNTL asks for the default page
  // on faults (*_PROTECTION_FAULT_ENABLE_DEFAULT): a faulting access goes there instead.
  std::optional<std::uint64_t> default_page;
};

struct MmuFault {
  std::uint64_t va = 0;
  bool write = false;
  int level = -1;  // level of the entry that stopped the walk (-1: range or disabled)
  std::uint64_t entry = 0;
  std::string reason;  // "range", "invalid PDE/PTE", "not in VRAM", "context disabled"
  // GCVM_L2_PROTECTION_FAULT_STATUS bits: MORE_FAULTS 0, WALKER_ERROR 1..3, PERMISSION_FAULTS
  // 4..7, MAPPING_ERROR 8, CID 9..17, RW 18.
  std::uint32_t status = 0;
};

class MmuFaultError : public std::runtime_error {
public:
  explicit MmuFaultError(MmuFault fault);
  const MmuFault &fault() const { return fault_; }

private:
  MmuFault fault_;
};

struct MmuTranslation {
  std::uint64_t address = 0;  // paddr (system == false) or bus address (system == true)
  bool system = false;
  std::uint64_t page_bytes = 0;  // coverage of the leaf
  int level = 0;                 // of the leaf; -1: the system aperture or the default page
};

struct MmuWalkStep {
  int level = 0;
  std::uint64_t table_paddr = 0;
  unsigned index = 0;
  std::uint64_t entry = 0;
};

// The walk itself (pure over VRAM). `steps`, when given, receives each level visited.
MmuTranslation mmu_translate(const VramAccess &vram, const MmuConfig &config, std::uint64_t va,
                             bool write, std::vector<MmuWalkStep> *steps = nullptr);
// MC address (PSP, IH, MQD pointers) → paddr, when inside [fb_base, fb_end] and VRAM.
std::optional<std::uint64_t> mc_to_paddr(const MmuConfig &config, std::uint64_t mc);

// Memory as an engine sees it: VRAM by paddr, host memory by bus address, both as 64-bit
// words (SimulatedVram); byte and dword access built on them.
class GpuMemory {
public:
  GpuMemory(VramAccess &vram, VramAccess *system) : vram_(vram), system_(system) {}
  std::uint8_t read8(std::uint64_t address, bool system) const;
  void write8(std::uint64_t address, bool system, std::uint8_t value);
  std::uint32_t read32(std::uint64_t address, bool system) const;  // 4-byte aligned
  std::uint64_t read64(std::uint64_t address, bool system) const;  // 8-byte aligned
  void write64(std::uint64_t address, bool system, std::uint64_t value);
  void write32(std::uint64_t address, bool system, std::uint32_t value);
  VramAccess &vram() { return vram_; }

private:
  VramAccess &space(std::uint64_t address, bool system) const;
  VramAccess &vram_;
  VramAccess *system_;
};

// VMID 0 as the engines use it: every access translated per 4 KiB page.
// VMID 0 as the engines use it: every access translated per 4 KiB page. With a fault sink and a
// default page in the config, a faulting access is reported to the sink and lands in the default
// page (the engine carries on, as the hardware does); otherwise it throws MmuFaultError.
class GpuAddressSpace {
public:
  using FaultSink = std::function<void(const MmuFault &)>;
  GpuAddressSpace(GpuMemory &memory, MmuConfig config, FaultSink sink = {})
      : memory_(memory), config_(config), sink_(std::move(sink)) {}
  std::uint32_t read32(std::uint64_t va);
  void write32(std::uint64_t va, std::uint32_t value);
  std::uint64_t read64(std::uint64_t va);
  void write64(std::uint64_t va, std::uint64_t value);
  std::vector<std::uint32_t> read_dwords(std::uint64_t va, std::size_t count);
  // Byte copy, page by page on both sides (overlap handled as memmove).
  void copy(std::uint64_t dst_va, std::uint64_t src_va, std::uint64_t bytes);
  const MmuConfig &config() const { return config_; }
  std::uint64_t translated_pages() const { return translated_; }
  std::uint64_t redirected_pages() const { return redirected_; }

private:
  MmuTranslation page(std::uint64_t va, bool write);
  GpuMemory &memory_;
  MmuConfig config_;
  FaultSink sink_;
  std::uint64_t translated_ = 0, redirected_ = 0;
};

}  // namespace wavescope::hw::sim::am
