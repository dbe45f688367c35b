#pragma once
// SOC init (am-driver.md §12.2): NBIO doorbell setup — the XCC doorbell fence, interrupt monitor
// and doorbell access on NBIO 7.9 (MI300/MI350, through PCIE INDEX2 for the other AIDs), else
// RCC_DEV0_EPF2_STRAP2.strap_no_soft_reset_dev0_f2 = 0 (an indirect register on RDNA4) — and the
// doorbell aperture; the S2A doorbell entries GFX and SDMA init route through; SOC clock gating
// (§13: HDP_MEM_POWER_CTRL on HDP >= 5.2.1).

#include <cstdint>

namespace wavescope::hw::am {

class AmGpu;

class AmSoc {
public:
  explicit AmSoc(AmGpu &gpu) : gpu_(gpu) {}
  void init_sw() {}
  void init_hw();
  void set_clockgating_state();
  // The S2A doorbell entry control of `port` (GDC_S2A0_S2A_… on GC >= 12, else S2A_…): enable,
  // awid, range offset/size, awaddr_31_28; through PCIE INDEX2 with `aid` on NBIO 7.9.
  void doorbell_enable(unsigned port, std::uint32_t awid, std::uint32_t awaddr_31_28,
                       std::uint32_t offset, std::uint32_t size, unsigned aid = 0);

private:
  bool nbio_7_9() const;
  AmGpu &gpu_;
};

}  // namespace wavescope::hw::am
