#pragma once
// What a tool does to a simulated board kept in a store, behind its back (no transport, no
// board activity): look at it, power-cycle it, let a driver load, arm faults, change settings.
// Each loads and locks the board, changes it, saves it with the command as its last run, and
// returns its status.

#include <string>
#include <vector>

#include "wavescope/hw/sim/board_report.hpp"
#include "wavescope/hw/sim/sim_store.hpp"

namespace wavescope::hw::sim {

// The board as it is, with the JSON report the previous command left.
BoardStatus stored_board_status(const SimStore &store, const std::string &name);

// Power off and on: BOOTED if its flash boots, else BRICKED (also restores power after a loss).
BoardStatus power_cycle_board(const SimStore &store, const std::string &name);

// A driver starts the PSP secure OS: BOOTED -> SOS.
BoardStatus load_driver_on_board(const SimStore &store, const std::string &name);

// Arms faults written as text (fault_plan.hpp's forms, USB ones checked against the bridge's),
// after removing every armed fault when `clear_first`. Every spec is parsed before the board is
// touched: a bad one throws Error(Usage) naming it and changes nothing.
BoardStatus arm_board_faults(const SimStore &store, const std::string &name,
                             const std::vector<std::string> &specs, bool clear_first);

// Applies KEY=VALUE settings in order (apply_config_override); a bad one throws Error(Usage)
// and changes nothing.
BoardStatus configure_board(const SimStore &store, const std::string &name,
                            const std::vector<std::string> &settings);

}  // namespace wavescope::hw::sim
