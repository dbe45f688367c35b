#include "wavescope/hw/am/gmc.hpp"

#include <string>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/hdp.hpp"

namespace wavescope::hw::am {

namespace {
constexpr unsigned kMtypeUc = 3;  // MTYPE_UC in vega10_enum.h, soc21_enum.h and soc24_enum.h

struct HubNames {
  const char *block;   // register-map block
  const char *prefix;  // register prefix
};
HubNames names(VmHub hub) {
  return hub == VmHub::Mm ? HubNames{"mmhub", "MM"} : HubNames{"gc", "GC"};
}

std::string name(VmHub hub, std::string_view reg) {
  const auto n = names(hub);
  return fmt::format("{}.{}{}", n.block, n.prefix, reg);
}
}  // namespace

const char *vm_hub_name(VmHub hub) { return hub == VmHub::Mm ? "MM" : "GC"; }

GmcBlock::GmcBlock(AmRegisters &regs, const AmChipInfo &chip) : regs_(regs), chip_(chip) {}

std::uint64_t GmcBlock::flush_hdp() { return am::flush_hdp(regs_); }

const GmcApertures &GmcBlock::read_apertures() {
  GmcApertures a;
  if (regs_.has("mmhub.MMMC_VM_XGMI_LFB_CNTL")) {
    const std::uint32_t cntl = regs_.read("mmhub.MMMC_VM_XGMI_LFB_CNTL");
    a.xgmi_node =
        static_cast<unsigned>(regs_.field("mmhub.MMMC_VM_XGMI_LFB_CNTL", "PF_LFB_REGION", cntl));
    a.xgmi_max_region =
        static_cast<unsigned>(regs_.field("mmhub.MMMC_VM_XGMI_LFB_CNTL", "PF_MAX_REGION", cntl));
  }
  if (regs_.has("mmhub.MMMC_VM_XGMI_LFB_SIZE")) {
    const std::uint32_t size = regs_.read("mmhub.MMMC_VM_XGMI_LFB_SIZE");
    a.xgmi_segment_size = regs_.field("mmhub.MMMC_VM_XGMI_LFB_SIZE", "PF_LFB_SIZE", size) << 24;
  }
  a.paddr_base = a.xgmi_node * a.xgmi_segment_size;
  a.fb_base = std::uint64_t{regs_.read("mmhub.MMMC_VM_FB_LOCATION_BASE") & 0xFF'FFFFu} << 24;
  a.fb_end = std::uint64_t{regs_.read("mmhub.MMMC_VM_FB_LOCATION_TOP") & 0xFF'FFFFu} << 24;
  a.mc_base = a.fb_base + a.paddr_base;
  apertures_ = a;
  return apertures_;
}

void GmcBlock::init_hub(VmHub hub) {
  const bool gfx9 = chip_.gc.major < 10;
  const std::uint64_t memscratch = paddr_to_xgmi(pages_.memscratch) >> 12;
  const std::uint64_t dummy = paddr_to_xgmi(pages_.dummy_page) >> 12;
  for (unsigned inst = 0; inst < hub_instances(hub); ++inst) {
    auto r = [&](std::string_view reg) { return name(hub, reg); };
    // 1-4: apertures (AGP disabled), default pages.
    regs_.write(r("MC_VM_AGP_BASE"), 0, inst);
    regs_.write(r("MC_VM_AGP_BOT"), 0xFF'FFFF, inst);
    regs_.write(r("MC_VM_AGP_TOP"), 0, inst);
    regs_.write(r("MC_VM_SYSTEM_APERTURE_LOW_ADDR"),
                static_cast<std::uint32_t>(apertures_.fb_base >> 18), inst);
    regs_.write(r("MC_VM_SYSTEM_APERTURE_HIGH_ADDR"),
                static_cast<std::uint32_t>(apertures_.fb_end >> 18), inst);
    regs_.write_pair(r("MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR"), "_LSB", "_MSB", memscratch, inst);
    regs_.write_pair(r("VM_L2_PROTECTION_FAULT_DEFAULT_ADDR"), "_LO32", "_HI32", dummy, inst);
    // 5-11: fault retry, L1 TLB, L2.
    regs_.update(r("VM_L2_PROTECTION_FAULT_CNTL2"), {{"ACTIVE_PAGE_MIGRATION_PTE_READ_RETRY", 1}},
                 inst);
    regs_.update(r("MC_VM_MX_L1_TLB_CNTL"),
                 {{"ENABLE_L1_TLB", 1},
                  {"SYSTEM_ACCESS_MODE", 3},
                  {"ENABLE_ADVANCED_DRIVER_MODEL", 1},
                  {"SYSTEM_APERTURE_UNMAPPED_ACCESS", 0},
                  {"MTYPE", kMtypeUc}},
                 inst);
    regs_.update(r("VM_L2_CNTL"),
                 {{"ENABLE_L2_CACHE", 1},
                  {"ENABLE_DEFAULT_PAGE_OUT_TO_SYSTEM_MEMORY", 1},
                  {"L2_PDE0_CACHE_TAG_GENERATION_MODE", 0},
                  {"PDE_FAULT_CLASSIFICATION", 0},
                  {"CONTEXT1_IDENTITY_ACCESS_MODE", 1},
                  {"IDENTITY_MODE_FRAGMENT_SIZE", 0},
                  {"ENABLE_L2_FRAGMENT_PROCESSING", gfx9 ? 1u : 0u}},
                 inst);
    regs_.update(r("VM_L2_CNTL2"), {{"INVALIDATE_ALL_L1_TLBS", 1}, {"INVALIDATE_L2_CACHE", 1}},
                 inst);
    regs_.write_fields(r("VM_L2_CNTL3"),
                       {{"L2_CACHE_4K_ASSOCIATIVITY", 1},
                        {"L2_CACHE_BIGK_ASSOCIATIVITY", 1},
                        {"BANK_SELECT", gfx9 ? 12u : 9u},
                        {"L2_CACHE_BIGK_FRAGMENT_SIZE", gfx9 ? 9u : 6u}},
                       inst);
    regs_.write_fields(r("VM_L2_CNTL4"), {{"L2_CACHE_4K_PARTITION_COUNT", 1}}, inst);
    if (!gfx9) regs_.write_fields(r("VM_L2_CNTL5"), {{"WALKER_PRIORITY_CLIENT_ID", 0x1FF}}, inst);
    // 12-15: VMID 0 addressing.
    regs_.write_pair(r("VM_CONTEXT0_PAGE_TABLE_START_ADDR"), "_LO32", "_HI32", kVmBase >> 12, inst);
    regs_.write_pair(r("VM_CONTEXT0_PAGE_TABLE_END_ADDR"), "_LO32", "_HI32", kVmEnd >> 12, inst);
    regs_.write_pair(r("VM_CONTEXT0_PAGE_TABLE_BASE_ADDR"), "_LO32", "_HI32",
                     paddr_to_xgmi(pages_.root_page_table) | 1, inst);
    regs_.write_fields(r("VM_CONTEXT0_CNTL"), 0x180'0000,
                       {{"PDE0_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"DUMMY_PAGE_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"RANGE_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"VALID_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"READ_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"WRITE_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"EXECUTE_PROTECTION_FAULT_ENABLE_INTERRUPT", 1},
                        {"PDE0_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"DUMMY_PAGE_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"RANGE_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"VALID_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"READ_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"WRITE_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"EXECUTE_PROTECTION_FAULT_ENABLE_DEFAULT", 1},
                        {"ENABLE_CONTEXT", 1},
                        {"PAGE_TABLE_DEPTH", gfx9 ? 2u : 3u},
                        {"PAGE_TABLE_BLOCK_SIZE", gfx9 ? 9u : 0u}},
                       inst);
    // 16-17: identity aperture disabled, invalidate ranges all-covering.
    regs_.write_pair(r("VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR"), "_LO32", "_HI32",
                     0xF'FFFF'FFFF, inst);
    regs_.write_pair(r("VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR"), "_LO32", "_HI32", 0, inst);
    regs_.write_pair(r("VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET"), "_LO32", "_HI32", 0, inst);
    for (unsigned eng = 0; eng < 18; ++eng)
      regs_.write_pair(r(fmt::format("VM_INVALIDATE_ENG{}_ADDR_RANGE", eng)), "_LO32", "_HI32",
                       0x1F'FFFF'FFFF, inst);
  }
  (hub == VmHub::Mm ? mm_ready_ : gc_ready_) = true;
}

void GmcBlock::flush_tlb(VmHub hub, unsigned vmid, unsigned flush_type) {
  if (vmid > 15)
    throw Error(ErrorKind::Usage, fmt::format("flush_tlb: VMID {} is outside 0..15", vmid));
  flush_hdp();
  if (!hub_initialised(hub)) return;
  for (unsigned inst = 0; inst < hub_instances(hub); ++inst) {
    if (hub == VmHub::Mm)
      regs_.wait(name(hub, "VM_INVALIDATE_ENG17_SEM"), 1, 1, inst, "mm flush_tlb timeout");
    regs_.write_fields(name(hub, "VM_INVALIDATE_ENG17_REQ"),
                       {{"FLUSH_TYPE", flush_type},
                        {"PER_VMID_INVALIDATE_REQ", 1u << vmid},
                        {"INVALIDATE_L2_PTES", 1},
                        {"INVALIDATE_L2_PDE0", 1},
                        {"INVALIDATE_L2_PDE1", 1},
                        {"INVALIDATE_L2_PDE2", 1},
                        {"INVALIDATE_L1_PTES", 1},
                        {"CLEAR_PROTECTION_FAULT_STATUS_ADDR", 0}},
                       inst);
    regs_.wait(name(hub, "VM_INVALIDATE_ENG17_ACK"), 1u << vmid, 1u << vmid, inst,
               "flush_tlb timeout");
    if (hub == VmHub::Mm) {
      regs_.write(name(hub, "VM_INVALIDATE_ENG17_SEM"), 0, inst);
      if (chip_.gc.major >= 11) {
        regs_.update(name(hub, "VM_L2_BANK_SELECT_RESERVED_CID2"),
                     {{"RESERVED_CACHE_PRIVATE_INVALIDATION", 1}}, inst);
        regs_.read(name(hub, "VM_L2_BANK_SELECT_RESERVED_CID2"), inst);
      }
    }
  }
}

const char *GmcBlock::fault_status_register() const {
  return chip_.gc.major >= 12 ? "gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32"
                              : "gc.GCVM_L2_PROTECTION_FAULT_STATUS";
}

GmcFault GmcBlock::read_gc_fault() {
  GmcFault f;
  f.status = regs_.read(fault_status_register());
  f.addr_lo32 = regs_.read("gc.GCVM_L2_PROTECTION_FAULT_ADDR_LO32");
  f.addr_hi32 = regs_.read("gc.GCVM_L2_PROTECTION_FAULT_ADDR_HI32");
  return f;
}

void GmcBlock::clear_gc_fault() {
  regs_.update("gc.GCVM_L2_PROTECTION_FAULT_CNTL", {{"CLEAR_PROTECTION_FAULT_STATUS_ADDR", 1}});
}

}  // namespace wavescope::hw::am
