#include "wavescope/hw/sim/board_start.hpp"

#include <string>

#include "sim/navi31_board.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::hw::sim {

std::optional<BoardState> parse_start_state(std::string_view name) {
  const auto state = parse_board_state(std::string(name));
  if (!state || *state == BoardState::Updated || *state == BoardState::Offline) return std::nullopt;
  return state;
}

void start_board_in(Navi31Board &board, BoardState state) {
  if (state != BoardState::Bricked && board.state() != BoardState::Booted)
    throw Refusal(ErrorKind::Usage,
                  {Remedy::BootableImage,
                   "the flash image does not boot (no valid header, $PSP directory and slot), so "
                   "the board cannot start booted or in sos",
                   {}});
  if (state == BoardState::Sos)
    board.load_driver();
  else
    board.force_state(state);
}

}  // namespace wavescope::hw::sim
