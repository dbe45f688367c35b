#include "wavescope/hw/navi31/board_probe.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"

namespace wavescope::hw::navi31 {

bool BoardProbe::mailbox_ready() const {
  return psp_command != kAllOnes && (psp_command & kPspReady) != 0;
}

std::string BoardProbe::state_name() const {
  switch (state) {
  case ProbedState::RomSwAvailable: return mailbox_ready() ? "booted-ungated" : "bricked";
  case ProbedState::RomSwGated: return "booted";
  case ProbedState::SosLoaded: return "sos";
  case ProbedState::NotResponding: return "not-responding";
  }
  return "unknown";
}

std::string BoardProbe::explanation() const {
  switch (state) {
  case ProbedState::RomSwAvailable:
    return mailbox_ready()
               ? "ROM_SW answers and the PSP mailbox is ready; flash, psp and rom commands work"
               : "the PSP boot loader is stalled (flash empty or corrupt); ROM_SW answers, so "
                 "flash info/read/dump/verify/write work; the PSP mailbox does not";
  case ProbedState::RomSwGated:
    return fmt::format(
        "the board booted from its flash, so ROM_SW is gated (ROM_SW_STATUS 0x5A3A4 "
        "reads 0x{:08X}); `rom dump` reads the flash, and the early PSP mailbox {}; "
        "`flash` commands need a board whose PSP stalled on an empty or corrupt flash",
        rom_sw_status,
        mailbox_ready() ? "is ready for `psp probe` and `psp ifwi-all`" : "is not ready");
  case ProbedState::SosLoaded:
    return "a driver has started the PSP secure OS (C2PMSG_81 is non-zero): ROM_SW and the early "
           "PSP mailbox are refused until the card is power-cycled with no driver loading it "
           "(blacklist amdgpu or unbind it); `rom dump` still reads the flash";
  case ProbedState::NotResponding:
    return "every register reads 0xFFFFFFFF: the device is not responding (PCIe link down, bridge "
           "or board powered off); check the cable and power, then rerun";
  }
  return {};
}

BoardProbe probe_board(Mmio &bar5) {
  BoardProbe p;
  p.rom_sw_status = bar5.read32(kRomSwStatus);
  p.psp_command = bar5.read32(kPspCommand);
  p.sos_alive = bar5.read32(kPspSosAlive);
  p.rom_cntl = bar5.read32(kRomCntl);
  if (p.rom_sw_status == kAllOnes && p.psp_command == kAllOnes && p.sos_alive == kAllOnes &&
      p.rom_cntl == kAllOnes)
    p.state = ProbedState::NotResponding;
  else if (p.sos_alive != 0 && p.sos_alive != kAllOnes)
    p.state = ProbedState::SosLoaded;
  else if (p.rom_sw_status == kRomSwStatusGated)
    p.state = ProbedState::RomSwGated;
  else if (p.rom_sw_status == kAllOnes)
    p.state = ProbedState::NotResponding;
  else
    p.state = ProbedState::RomSwAvailable;
  return p;
}

void require_rom_sw(const BoardProbe &probe) {
  switch (probe.state) {
  case ProbedState::RomSwAvailable: return;
  case ProbedState::NotResponding:
    throw Error(ErrorKind::Device, "device not responding: " + probe.explanation());
  case ProbedState::RomSwGated:
  case ProbedState::SosLoaded:
    throw Error(ErrorKind::State, "ROM_SW is not usable: " + probe.explanation());
  }
}

}  // namespace wavescope::hw::navi31
