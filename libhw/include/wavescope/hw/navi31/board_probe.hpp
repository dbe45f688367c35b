#pragma once
// The read-only state probe every session starts with (navi31-flash.md §8): four BAR5 reads tell
// which access paths the board offers — ROM_SW (bricked board), the early PSP mailbox (booted,
// before SOS), neither (SOS loaded), or nothing at all (every read all-ones: not responding).

#include <cstdint>
#include <string>

#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::navi31 {

enum class ProbedState {
  RomSwAvailable,  // ROM_SW answers (bricked board, or a test board forced ungated)
  RomSwGated,      // healthy autonomous boot: ROM_SW_STATUS stuck at 0x04000800
  SosLoaded,       // C2PMSG_81 != 0: a driver started the PSP secure OS
  NotResponding,   // every register reads 0xFFFFFFFF: link down or power lost
};

struct BoardProbe {
  std::uint32_t rom_sw_status = 0;
  std::uint32_t psp_command = 0;  // C2PMSG_115
  std::uint32_t sos_alive = 0;    // C2PMSG_81
  std::uint32_t rom_cntl = 0;
  ProbedState state = ProbedState::RomSwAvailable;

  bool mailbox_ready() const;
  bool rom_controller_present() const { return rom_cntl != 0xFFFFFFFF; }
  // "bricked" / "booted" / "sos" / "not-responding" (what `psp probe` and `devices` print).
  std::string state_name() const;
  // One sentence for the user: what the state is and which commands work in it.
  std::string explanation() const;
};

BoardProbe probe_board(Mmio &bar5);

// Throws unless ROM_SW is usable: Error(Device) when not responding, Error(State) with advice
// when gated or SOS is loaded.
void require_rom_sw(const BoardProbe &probe);

}  // namespace wavescope::hw::navi31
