// wavectl sim-am ...: fake AMD GPUs kept in the simulator root (am-driver.md §19.2) — create
// (from a chip profile), list, status, fault, configure, power-cycle, remove. Reach one with
// --device sim-am:NAME (directly) or sim-am-usb:NAME (through the simulated USB bridge).

#include <iostream>

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/sim/am_chip_commands.hpp"

namespace wavectl {
namespace {

using namespace wavescope;
using namespace wavescope::hw;

struct ChipArgs {
  std::string root;
  std::string name;
};

void add_name(CLI::App &cmd, ChipArgs &args) {
  cmd.add_option("NAME", args.name, "Fake GPU name")->required();
  hw_cli::add_sim_root_option(cmd, args.root);
}

sim::AmChipStore store_of(const ChipArgs &args) {
  return sim::AmChipStore(hw_cli::sim_root(args.root));
}

void add_create(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand("create", "Create a fake GPU at power-on from a chip profile");
  auto args = std::make_shared<ChipArgs>();
  auto recipe = std::make_shared<sim::AmChipRecipe>();
  add_name(*cmd, *args);
  cmd->add_option("--chip", recipe->chip,
                  "tinygrad-mock (default), navi31, navi48, mi300x or mi300x-harvest");
  cmd->add_option("--set", recipe->settings,
                  "KEY=VALUE: vram_mib, bar0_mib, small_bar=1, bar5_kib, vf=1, seed, op_cost_ns, "
                  "op_cost_usb_ns, or BLOCK.KEY for a block model (e.g. psp.tmr_size=0x1300000)");
  add_json_flag(*cmd, context);
  cmd->callback([args, recipe, &context] {
    auto store = store_of(*args);
    hw_cli::print_report(sim::create_am_chip(store, args->name, *recipe), context);
  });
}

void add_list(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand("list", "List the fake GPUs of the simulator root");
  auto root = std::make_shared<std::string>();
  hw_cli::add_sim_root_option(*cmd, *root);
  add_json_flag(*cmd, context);
  cmd->callback([root, &context] {
    sim::AmChipStore store(hw_cli::sim_root(*root));
    const auto names = store.list();
    if (context.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto &n : names) list.push_back(n);
      std::cout << nlohmann::json{{"fake_gpus", list}}.dump() << '\n';
    } else if (names.empty()) {
      std::cout << "no fake GPUs in " << store.root().string() << '\n';
    } else {
      for (const auto &n : names) std::cout << "sim-am:" << n << '\n';
    }
  });
}

void add_status(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand(
      "status", "Show a fake GPU: identity, sizes, bus master, its blocks' state, the last run");
  auto args = std::make_shared<ChipArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    hw_cli::print_report(sim::stored_am_chip_status(store_of(*args), args->name), context);
  });
}

void add_fault(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand(
      "fault", "Arm faults BLOCK:KIND[,KEY=VALUE]... (e.g. psp:status,cmd=6,value=0x9; "
               "psp:sos-never-alive; smu:timeout,msg=0x12)");
  auto args = std::make_shared<ChipArgs>();
  auto specs = std::make_shared<std::vector<std::string>>();
  auto clear = std::make_shared<bool>(false);
  add_name(*cmd, *args);
  cmd->add_option("SPEC", *specs, "BLOCK:KIND[,KEY=VALUE]...");
  cmd->add_flag("--clear", *clear, "Remove every armed fault first");
  add_json_flag(*cmd, context);
  cmd->callback([args, specs, clear, &context] {
    if (specs->empty() && !*clear) throw Error(ErrorKind::Usage, "give a fault SPEC or --clear");
    hw_cli::print_report(sim::arm_am_chip_faults(store_of(*args), args->name, *specs, *clear),
                         context);
  });
}

void add_configure(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand(
      "configure", "Change block settings BLOCK.KEY=VALUE and op_cost_ns / op_cost_usb_ns");
  auto args = std::make_shared<ChipArgs>();
  auto settings = std::make_shared<std::vector<std::string>>();
  add_name(*cmd, *args);
  cmd->add_option("SETTING", *settings, "KEY=VALUE")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, settings, &context] {
    hw_cli::print_report(sim::configure_am_chip(store_of(*args), args->name, *settings), context);
  });
}

void add_power_cycle(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand(
      "power-cycle", "Cut the power: registers and blocks at reset values (a cold GPU)");
  auto args = std::make_shared<ChipArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    hw_cli::print_report(sim::power_cycle_am_chip(store_of(*args), args->name), context);
  });
}

void add_remove(CLI::App &group, CliContext &context) {
  auto *cmd = group.add_subcommand("remove", "Delete a fake GPU");
  auto args = std::make_shared<ChipArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    auto store = store_of(*args);
    store.remove(args->name);
    hw_cli::print_report(sim::AmChipRemovalReport{args->name}, context);
  });
}

}  // namespace

void register_sim_am_commands(CLI::App &app, CliContext &context) {
  auto *group = app.add_subcommand(
      "sim-am", "Fake AMD GPUs (register-level, persistent): create, list, status, fault, "
                "configure, power-cycle, remove; use with --device sim-am:NAME");
  group->require_subcommand(1);
  add_create(*group, context);
  add_list(*group, context);
  add_status(*group, context);
  add_fault(*group, context);
  add_configure(*group, context);
  add_power_cycle(*group, context);
  add_remove(*group, context);
}

}  // namespace wavectl
