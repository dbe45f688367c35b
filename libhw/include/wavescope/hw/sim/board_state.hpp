#pragma once
// The states a simulated Navi31 board is in (navi31-flash.md §10.8), by name.

#include <optional>
#include <string>

namespace wavescope::hw::sim {

enum class BoardState { Bricked, Booted, Sos, Updated, Offline };
const char *to_string(BoardState state);
std::optional<BoardState> parse_board_state(const std::string &text);

}  // namespace wavescope::hw::sim
