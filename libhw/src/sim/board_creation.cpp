#include "wavescope/hw/sim/board_creation.hpp"

#include <fmt/format.h>

#include "sim/navi31_board.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/sim/board_start.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::sim {

namespace {

std::vector<std::uint8_t> chip_contents(const BoardRecipe &recipe) {
  switch (recipe.flash) {
  case BoardRecipe::Flash::TestImage: return ifwi::make_test_ifwi_image();
  case BoardRecipe::Flash::Image:
    if (recipe.image.size() != navi31::kFlashSize)
      throw Error(ErrorKind::BadInput,
                  fmt::format("{} is {} bytes; the simulated chip holds exactly 2 MiB",
                              recipe.image_name, recipe.image.size()));
    return recipe.image;
  case BoardRecipe::Flash::Blank: break;
  }
  return std::vector<std::uint8_t>(navi31::kFlashSize, 0xFF);
}

}  // namespace

BoardStatus create_board(SimStore &store, const std::string &name, const BoardRecipe &recipe) {
  SimStore::validate_name(name);
  SimConfig config;
  for (const auto &s : recipe.settings) apply_config_override(config, s);
  VirtualClock clock;
  Navi31Board board(config, clock, chip_contents(recipe));
  if (recipe.cmp) board.chip().preset_status(0, navi31::kSr2Cmp);
  if (recipe.start_state) start_board_in(board, *recipe.start_state);
  store.create(name, board);
  return board_status(board, name, store.board_dir(name));
}

}  // namespace wavescope::hw::sim
