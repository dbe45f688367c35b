#include "wavescope/hw/sim/board_commands.hpp"

#include <nlohmann/json.hpp>

#include "fault/fault_plan.hpp"
#include "fault/usb_fault_plan.hpp"
#include "fault/usb_fault_spec.hpp"
#include "sim/navi31_board.hpp"
#include "sim/sim_config.hpp"

namespace wavescope::hw::sim {
namespace {

// Loads `name`, applies `change`, saves it with `command` as its last run (only when `change`
// returns), and reports the board as it is now.
template <typename Change>
BoardStatus change_board(const SimStore &store, const std::string &name, const char *command,
                         Change &&change) {
  auto loaded = store.open(name);
  change(*loaded.board);
  store.save(loaded, nlohmann::json{{"command", command}, {"device", "sim:" + name}}.dump());
  return board_status(*loaded.board, name, store.board_dir(name));
}

}  // namespace

BoardStatus stored_board_status(const SimStore &store, const std::string &name) {
  auto loaded = store.open(name);
  auto status = board_status(*loaded.board, name, store.board_dir(name));
  status.last_run_json = loaded.last_run_json;
  return status;
}

BoardStatus power_cycle_board(const SimStore &store, const std::string &name) {
  return change_board(store, name, "power-cycle", [](Navi31Board &b) { b.power_cycle(); });
}

BoardStatus load_driver_on_board(const SimStore &store, const std::string &name) {
  return change_board(store, name, "load-driver", [](Navi31Board &b) { b.load_driver(); });
}

BoardStatus arm_board_faults(const SimStore &store, const std::string &name,
                             const std::vector<std::string> &specs, bool clear_first) {
  std::vector<Fault> parsed;
  for (const auto &spec : specs) {
    parsed.push_back(parse_fault(spec));
    if (parsed.back().kind == FaultKind::Usb) {
      UsbFaultPlan check;  // the bridge exists only while a command runs: check the form now
      device::apply_usb_fault(check, parsed.back().usb_spec);
    }
  }
  return change_board(store, name, "fault", [&](Navi31Board &b) {
    if (clear_first) b.faults().clear();
    for (auto &fault : parsed) b.arm_fault(fault);
  });
}

BoardStatus configure_board(const SimStore &store, const std::string &name,
                            const std::vector<std::string> &settings) {
  return change_board(store, name, "configure", [&](Navi31Board &b) {
    for (const auto &setting : settings) apply_config_override(b.mutable_config(), setting);
  });
}

}  // namespace wavescope::hw::sim
