#pragma once
// Making a new simulated board (`sim create`): what its chip holds (erased, the synthesized test
// image, or a given 2 MiB image), its settings, SR2.CMP, and the state it starts in — then the
// board is written to a store. The rules live here; a tool only fills in the recipe.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/hw/sim/board_report.hpp"
#include "wavescope/hw/sim/board_state.hpp"
#include "wavescope/hw/sim/sim_store.hpp"

namespace wavescope::hw::sim {

struct BoardRecipe {
  enum class Flash { Blank, TestImage, Image } flash = Flash::Blank;
  std::vector<std::uint8_t> image;        // Flash::Image: exactly 2 MiB
  std::string image_name;                 // for messages
  std::vector<std::string> settings;      // KEY=VALUE, applied in order (apply_config_override)
  bool cmp = false;                       // SR2.CMP set: with BP = 0 the whole array is protected
  std::optional<BoardState> start_state;  // one parse_start_state returns; default: as it boots
};

// Validates `name`, builds the board (powered on, then put in the recipe's state) and writes it
// to `store`. Throws Error(BadInput) for an image that is not 2 MiB, Error(Usage) for a bad
// setting, a state the image cannot boot into (start_board_in) or a name already in use.
BoardStatus create_board(SimStore &store, const std::string &name, const BoardRecipe &recipe);

}  // namespace wavescope::hw::sim
