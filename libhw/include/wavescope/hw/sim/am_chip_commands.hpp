#pragma once
// What `wavectl sim-am create|status|fault|configure|reset|remove` do to a stored fake GPU, and
// their report: the chip's identity and sizes, PCI state, virtual time, what its blocks say
// (PSP/SMU state, armed faults) and the last run. The rules live here; a tool fills in names.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/hw/sim/am_chip_store.hpp"

namespace wavescope::hw::sim {

struct AmChipRecipe {
  std::string chip = "tinygrad-mock";  // an am::chip_profile name
  std::vector<std::string> settings;   // KEY=VALUE (vram_mib, small_bar, psp.tmr_size, ...)
};

struct AmChipStatus {
  std::string name;
  std::filesystem::path path;
  std::string chip;
  std::uint16_t device_id = 0;
  std::uint64_t vram_size = 0, bar0_size = 0, bar2_size = 0, bar5_size = 0;
  bool large_bar = false, vf = false, bus_master = false;
  std::int64_t time_ns = 0;
  std::size_t registers_stored = 0, vram_pages = 0;
  std::vector<std::pair<std::string, std::string>> settings;
  // Per block model: its name and its status as one JSON object's text.
  std::vector<std::pair<std::string, std::string>> blocks;
  // `sim-am status` also shows the previous command's report (printed as null when none).
  std::optional<std::string> last_run_json;
};

// Builds a chip at power-on from the recipe and writes it to the store. Throws Error(Usage) for
// an unknown chip, a bad setting or a name in use.
AmChipStatus create_am_chip(AmChipStore &store, const std::string &name,
                            const AmChipRecipe &recipe);
AmChipStatus stored_am_chip_status(const AmChipStore &store, const std::string &name);
// Arms faults "BLOCK:KIND[,KEY=VALUE]..." (after clearing all when `clear_first`).
AmChipStatus arm_am_chip_faults(const AmChipStore &store, const std::string &name,
                                const std::vector<std::string> &specs, bool clear_first);
// Changes block settings (BLOCK.KEY=VALUE) and op costs; sizes and the chip are fixed at create.
AmChipStatus configure_am_chip(const AmChipStore &store, const std::string &name,
                               const std::vector<std::string> &settings);
// Cuts the power: every register and block back to its reset values (VRAM keeps its contents,
// as DRAM would for a moment; the discovery ROM is written again).
AmChipStatus power_cycle_am_chip(const AmChipStore &store, const std::string &name);

std::string to_json(const AmChipStatus &status);
std::string to_text(const AmChipStatus &status);

struct AmChipRemovalReport {
  std::string name;
};
std::string to_json(const AmChipRemovalReport &report);
std::string to_text(const AmChipRemovalReport &report);

}  // namespace wavescope::hw::sim
