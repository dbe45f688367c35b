#include "wavescope/hw/am/hdp.hpp"

namespace wavescope::hw::am {

std::uint64_t flush_hdp(AmRegisters &regs) {
  const std::uint32_t byte_offset = regs.read("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL");
  const std::uint64_t address = byte_offset / 4;
  regs.write_address(address, 0);
  return address;
}

bool set_hdp_clockgating(AmRegisters &regs, const AmChipInfo &chip) {
  if (chip.hdp < regs::IpVersion{5, 2, 1}) return false;
  regs.update("hdp.HDP_MEM_POWER_CTRL",
              {{"ATOMIC_MEM_POWER_CTRL_EN", 1}, {"ATOMIC_MEM_POWER_DS_EN", 1}});
  return true;
}

}  // namespace wavescope::hw::am
