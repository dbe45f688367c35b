#include "wavescope/hw/am/soc.hpp"

#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::am {

bool AmSoc::nbio_7_9() const {
  const auto v = gpu_.device().ip_version("NBIO");
  return v.major == 7 && v.minor == 9 && v.revision <= 1;
}

void AmSoc::init_hw() {
  auto &dev = gpu_.device();
  if (nbio_7_9()) {
    // Fence doorbells of harvested XCCs (0xFF & ~mask of live instances < 8).
    std::uint32_t live = 0;
    const auto &d = dev.discovery();
    for (const auto &die : d.dies)
      for (const auto &e : die.ips) {
        if (e.hw_id != 11 || e.instance >= 8) continue;
        bool harvested = false;
        for (const auto &h : d.harvest) harvested |= h.hw_id == 11 && h.instance == e.instance;
        if (!harvested) live |= 1u << e.instance;
      }
    dev.wreg("nbio.XCC_DOORBELL_FENCE", 0xFF & ~live);
    const auto &fence = dev.reg("nbio.XCC_DOORBELL_FENCE");
    const std::pair<std::string_view, std::uint64_t> slave{"SHUB_SLV_MODE", 1};
    const auto value = static_cast<std::uint32_t>(
        regs::update_register_value(*fence.reg, 0, std::span(&slave, 1)));
    for (unsigned aid = 1; aid < dev.instances("mmhub"); ++aid)
      dev.write_dword_index2(dev.address("nbio.XCC_DOORBELL_FENCE"), value, aid);
    dev.wreg("nbio.BIFC_GFX_INT_MONITOR_MASK", 0x7FF);
    dev.wreg("nbio.BIFC_DOORBELL_ACCESS_EN_PF", 0xFFFFF);
  } else {
    dev.update("nbio.RCC_DEV0_EPF2_STRAP2", {{"STRAP_NO_SOFT_RESET_DEV0_F2", 0}});
  }
  dev.wreg("nbio.RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN", 1);
}

void AmSoc::set_clockgating_state() {
  auto &dev = gpu_.device();
  if (dev.ip_version("HDP") >= regs::IpVersion{5, 2, 1} &&
      dev.has_register("hdp.HDP_MEM_POWER_CTRL"))
    dev.update("hdp.HDP_MEM_POWER_CTRL",
               {{"ATOMIC_MEM_POWER_CTRL_EN", 1}, {"ATOMIC_MEM_POWER_DS_EN", 1}});
}

}  // namespace wavescope::hw::am
