#include "wavescope/hw/device/dry_run_copy.hpp"

#include <vector>

#include "wavescope/hw/sim/navi31_board.hpp"
#include "wavescope/hw/sim/sim_store.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::device {

std::string create_dry_run_copy(const std::filesystem::path &sim_root, std::string_view device_id,
                                std::span<const std::uint8_t> chip, std::uint8_t sr1,
                                std::uint8_t sr2) {
  VirtualClock clock;
  sim::Navi31Board board(sim::SimConfig{}, clock,
                         std::vector<std::uint8_t>(chip.begin(), chip.end()));
  board.force_state(sim::BoardState::Bricked);  // the device answered on ROM_SW
  board.chip().preset_status(sr1, sr2);
  sim::SimStore(sim_root).create("copy", board);
  const bool direct = device_id.starts_with("pci:") || device_id.starts_with("sim-pci:");
  return direct ? "sim-pci:copy" : "sim:copy";
}

}  // namespace wavescope::hw::device
