#pragma once
// The states a new simulated board may start in, and how it is put there: bricked (forced, as
// if its PSP had stalled), booted (as its flash boots) or sos (booted, then the driver loaded).

#include <optional>
#include <string_view>

#include "wavescope/hw/sim/board_state.hpp"

namespace wavescope::hw::sim {

class Navi31Board;

// "bricked", "booted" or "sos"; nullopt for any other name (including the states a board only
// reaches by running: updated, offline).
std::optional<BoardState> parse_start_state(std::string_view name);

// Puts a freshly powered-on `board` into `state` (one parse_start_state returns). Throws
// Error(Usage) when the state needs a boot the board's flash cannot give it.
void start_board_in(Navi31Board &board, BoardState state);

}  // namespace wavescope::hw::sim
