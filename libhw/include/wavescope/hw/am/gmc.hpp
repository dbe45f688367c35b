#pragma once
// The AM driver's GMC (am-driver.md §7.1, §7.5, §7.6, §8): apertures read from the MMHUB, hub
// initialisation for MM on every MMHUB instance and GC on every XCC, and the TLB flush through
// invalidate engine 17 (semaphore acquire and release on MM) after an HDP flush. Register access
// goes through AmRegisters; the real-hardware path is untested on hardware (tier 2).

#include <cstdint>

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::hw::am {

enum class VmHub { Mm, Gc };
const char *vm_hub_name(VmHub hub);  // "MM", "GC"

// What the GMC reads at init (§7.1).
struct GmcApertures {
  std::uint64_t fb_base = 0, fb_end = 0;  // MC addresses of the framebuffer
  unsigned xgmi_node = 0, xgmi_max_region = 0;
  std::uint64_t xgmi_segment_size = 0;
  std::uint64_t paddr_base = 0;  // XGMI address of paddr 0 = node x segment size
  std::uint64_t mc_base = 0;     // MC address of paddr 0 = fb_base + paddr_base
  bool is_hive() const { return xgmi_segment_size > 0 && xgmi_max_region > 0; }
};

// The boot pages the hubs point at (§5.5 rows 1-3), as paddrs.
struct GmcBootPages {
  std::uint64_t root_page_table = 0;
  std::uint64_t memscratch = 0;  // system-aperture default page
  std::uint64_t dummy_page = 0;  // protection-fault default page
};

// The fault registers the IH fault path reads (§11).
struct GmcFault {
  std::uint32_t status = 0;  // GCVM_L2_PROTECTION_FAULT_STATUS (_LO32 on GC >= 12)
  std::uint32_t addr_lo32 = 0, addr_hi32 = 0;
  std::uint64_t va() const { return ((std::uint64_t{addr_hi32} << 32) | addr_lo32) << 12; }
};

class GmcBlock {
public:
  static constexpr std::uint64_t kVmBase = 0x2000'0000'0000, kVmEnd = 0x7FFF'FFFF'FFFF;

  GmcBlock(AmRegisters &regs, const AmChipInfo &chip);

  // §7.1: FB location and, where the registers exist, the XGMI LFB.
  const GmcApertures &read_apertures();
  const GmcApertures &apertures() const { return apertures_; }
  std::uint64_t paddr_to_mc(std::uint64_t paddr) const { return apertures_.mc_base + paddr; }
  std::uint64_t paddr_to_xgmi(std::uint64_t paddr) const { return apertures_.paddr_base + paddr; }
  void set_boot_pages(const GmcBootPages &pages) { pages_ = pages; }

  // §7.5 on every instance of the hub, then marks it initialised. MM counts as initialised from
  // construction on (it survives a partial boot); GC only after its init_hub.
  void init_hub(VmHub hub);
  bool hub_initialised(VmHub hub) const { return hub == VmHub::Mm ? mm_ready_ : gc_ready_; }
  // For a tool attaching to a GPU the driver booted: its hubs are set up already.
  void set_hub_initialised(VmHub hub, bool on = true) {
    (hub == VmHub::Mm ? mm_ready_ : gc_ready_) = on;
  }
  // §7.6: HDP flush; then, if the hub is initialised, invalidate engine 17 on every instance.
  void flush_tlb(VmHub hub, unsigned vmid = 0, unsigned flush_type = 0);
  std::uint64_t flush_hdp();  // §8, see hdp.hpp

  // The GC fault status register's name ("gc.GCVM_L2_PROTECTION_FAULT_STATUS[_LO32]").
  const char *fault_status_register() const;
  GmcFault read_gc_fault();
  void clear_gc_fault();  // GCVM_L2_PROTECTION_FAULT_CNTL.clear_protection_fault_status_addr = 1

  unsigned hub_instances(VmHub hub) const { return hub == VmHub::Mm ? chip_.mmhubs : chip_.xccs; }

private:
  AmRegisters &regs_;
  AmChipInfo chip_;
  GmcApertures apertures_;
  GmcBootPages pages_;
  bool mm_ready_ = true, gc_ready_ = false;
};

}  // namespace wavescope::hw::am
