#include "wavescope/hw/am/soc.hpp"

#include <fmt/format.h>

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

void AmSoc::doorbell_enable(unsigned port, std::uint32_t awid, std::uint32_t awaddr_31_28,
                            std::uint32_t offset, std::uint32_t size, unsigned aid) {
  auto &dev = gpu_.device();
  const std::string name =
      fmt::format("nbio.{}_DOORBELL_ENTRY_{}_CTRL",
                  dev.ip_version("GC").major >= 12 ? "GDC_S2A0_S2A" : "S2A", port);
  const auto &ref = dev.reg(name);
  const std::string p = fmt::format("S2A_DOORBELL_PORT{}_", port);
  const std::string f_enable = p + "ENABLE", f_awid = p + "AWID", f_size = p + "RANGE_SIZE",
                    f_awaddr = p + "AWADDR_31_28_VALUE", f_offset = p + "RANGE_OFFSET";
  const std::pair<std::string_view, std::uint64_t> fields[] = {
      {f_enable, 1}, {f_awid, awid}, {f_size, size}, {f_awaddr, awaddr_31_28}, {f_offset, offset}};
  const auto value = static_cast<std::uint32_t>(regs::update_register_value(*ref.reg, 0, fields));
  if (nbio_7_9())
    dev.write_dword_index2(dev.address(name), value, aid);
  else
    dev.wreg(name, value);
}

}  // namespace wavescope::hw::am
