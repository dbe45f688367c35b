#pragma once
// SOC init (am-driver.md §12.2): NBIO doorbell setup — the XCC doorbell fence, interrupt monitor
// and doorbell access on NBIO 7.9 (MI300/MI350, through PCIE INDEX2 for the other AIDs), else
// RCC_DEV0_EPF2_STRAP2.strap_no_soft_reset_dev0_f2 = 0 (an indirect register on RDNA4) — and the
// doorbell aperture; SOC clock gating (§13: HDP_MEM_POWER_CTRL on HDP >= 5.2.1). The S2A doorbell
// entries GFX and SDMA init route through are in doorbell_routing.hpp.

namespace wavescope::hw::am {

class AmGpu;

class AmSoc {
public:
  explicit AmSoc(AmGpu &gpu) : gpu_(gpu) {}
  void init_sw() {}
  void init_hw();
  void set_clockgating_state();

private:
  bool nbio_7_9() const;
  AmGpu &gpu_;
};

}  // namespace wavescope::hw::am
