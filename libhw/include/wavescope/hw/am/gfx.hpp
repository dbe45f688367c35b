#pragma once
// The AM driver's GFX block (am-driver.md §12.3-§12.5, §13): GFX init (RLC autoload wait, GC hub,
// MEC ucode start and pipe reset, RLC/TCP setup, SH_MEM apertures per VMID, MEC doorbell range,
// MEC enable), compute queue setup (the MQD in VRAM and its 56-dword register image written by
// address after GRBM_GFX_CNTL selects me 1 / pipe / queue), HQD dequeue, MEC reset, and GFX
// clock gating. No KIQ/MES (§12.10: AM maps queues by writing HQD registers).

#include <array>
#include <cstdint>
#include <functional>

#include "wavescope/hw/am/block_registers.hpp"
#include "wavescope/hw/am/gmc.hpp"

namespace wavescope::hw::am {

class VramAccess;

// Byte addresses of the microcode entry points (from the firmware headers; PRGRM_CNTR_START is
// the address >> 2). PFP and ME only matter on GC >= 12, MEC on GC >= 10.
struct GfxUcodeStart {
  std::uint64_t pfp = 0, me = 0, mec = 0;
};

// §12.3 step 1: AM's condition (CP_STAT == 0 or bootload_complete == 0) or the kernel's (CP_STAT
// == 0 and bootload_complete == 1), an option to validate on hardware (§22 item 1).
enum class RlcAutoloadCondition { Am, Kernel };

struct ComputeRing {
  std::uint64_t ring_va = 0, ring_bytes = 0, rptr_va = 0, wptr_va = 0, eop_va = 0, eop_bytes = 0;
  unsigned idx = 0;  // pipe = idx / 4, queue = idx % 4 (only queues 0 and 1 have MQD pages)
  bool aql = false;
};

class GfxBlock {
public:
  // mqd_paddr: the two boot MQD allocations (§5.5 rows 14-15), 4 KiB per XCC each.
  GfxBlock(AmRegisters &regs, VramAccess &vram, GmcBlock &gmc, const AmChipInfo &chip,
           std::array<std::uint64_t, 2> mqd_paddr, GfxUcodeStart ucode);

  // Full boot runs every step; partial boot only waits for RLC autoload, inits the GC hub and
  // resets the MEC.
  void init_hw(bool partial_boot, RlcAutoloadCondition condition = RlcAutoloadCondition::Am);
  // §12.4; returns the doorbell slot (3).
  unsigned setup_ring(const ComputeRing &ring);
  // §12.5: every active HQD of me 1 / pipe 0 / queues 0-1 on every XCC; waits for it to go idle
  // unless AM is in its error state.
  void dequeue_hqds(bool error_state);
  void reset_mec(bool error_state);
  void set_clockgating();
  void fini(bool error_state) { dequeue_hqds(error_state); }

  // GRBM_GFX_CNTL (pipeid 0..1, meid 2..3, vmid 4..7, queueid 8..10).
  void grbm_select(unsigned me = 0, unsigned pipe = 0, unsigned queue = 0, unsigned vmid = 0,
                   unsigned xcc = 0);
  // Called with mode 1 after init on more than one XCC (PSP SRIOV_SPATIAL_PART, §12.3 step 7).
  void set_spatial_partition_hook(std::function<void(unsigned mode)> hook) {
    spatial_partition_ = std::move(hook);
  }

private:
  void config_mec();
  void enable_mec();
  void start_engine(const char *engine, const char *cntl, const char *reg, unsigned me,
                    std::uint64_t start, unsigned xcc);

  AmRegisters &regs_;
  VramAccess &vram_;
  GmcBlock &gmc_;
  AmChipInfo chip_;
  std::array<std::uint64_t, 2> mqd_paddr_;
  GfxUcodeStart ucode_;
  std::function<void(unsigned)> spatial_partition_;
};

}  // namespace wavescope::hw::am
