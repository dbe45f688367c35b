// wavectl sim ...: simulated Navi31 boards kept in a directory — create, status, power-cycle,
// load-driver, fault, configure, export, remove. A simulated board is a product feature (demos,
// training, dry runs): flash it, power-cycle it and dump it across commands.

#include <iostream>

#include <fmt/format.h>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "commands/hw/refusal_wording.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/hw/sim/board_commands.hpp"
#include "wavescope/hw/sim/board_creation.hpp"
#include "wavescope/hw/sim/board_export.hpp"
#include "wavescope/hw/sim/board_report.hpp"
#include "wavescope/hw/sim/board_start.hpp"
#include "wavescope/hw/sim/sim_store.hpp"

namespace wavectl {
namespace {

using namespace wavescope;
using namespace wavescope::hw;
struct SimArgs {
  std::string root;
  std::string name;
};

void add_name(CLI::App &cmd, SimArgs &args) {
  cmd.add_option("NAME", args.name, "Simulated board name")->required();
  hw_cli::add_sim_root_option(cmd, args.root);
}

sim::SimStore store_of(const SimArgs &args) { return sim::SimStore(hw_cli::sim_root(args.root)); }

void create(const SimArgs &args, const std::string &state, const std::string &image,
            bool test_image, bool blank, bool cmp, const std::vector<std::string> &settings,
            const CliContext &ctx) {
  sim::SimStore::validate_name(args.name);
  if ((test_image ? 1 : 0) + (image.empty() ? 0 : 1) + (blank ? 1 : 0) > 1)
    throw Error(ErrorKind::Usage, "choose one of --image FILE, --test-image and --blank");
  sim::BoardRecipe recipe;
  recipe.settings = settings;
  recipe.cmp = cmp;
  if (test_image) recipe.flash = sim::BoardRecipe::Flash::TestImage;
  if (!image.empty()) {
    recipe.flash = sim::BoardRecipe::Flash::Image;
    recipe.image = wavescope::read_file_bytes(image);
    recipe.image_name = image;
  }
  if (!state.empty()) {
    recipe.start_state = sim::parse_start_state(state);
    if (!recipe.start_state)
      throw Error(ErrorKind::Usage,
                  fmt::format("--state {}: expected bricked, booted or sos", state));
  }
  auto store = store_of(args);
  try {
    hw_cli::print_report(sim::create_board(store, args.name, recipe), ctx);
  } catch (const Refusal &e) {
    if (e.advice().remedy != Remedy::BootableImage) throw;
    throw Error(e.kind(), fmt::format("--state {}: {}", state, hw_cli::cli_wording(e.advice())));
  }
}

void add_create_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand(
      "create", "Create a simulated board (powers on: BOOTED if its flash boots, else BRICKED)");
  auto args = std::make_shared<SimArgs>();
  auto state = std::make_shared<std::string>();
  auto image = std::make_shared<std::string>();
  auto flags = std::make_shared<std::array<bool, 3>>();
  auto settings = std::make_shared<std::vector<std::string>>();
  add_name(*cmd, *args);
  cmd->add_option("--state", *state, "bricked | booted | sos (default: what its flash boots into)");
  cmd->add_option("--image", *image, "2 MiB file to put on the chip");
  cmd->add_flag("--test-image", (*flags)[0],
                "The synthesized Navi31 image (navi31-flash.md §10.12)");
  cmd->add_flag("--blank", (*flags)[1], "An erased chip (the default)");
  cmd->add_flag("--cmp", (*flags)[2],
                "Set SR2.CMP: with BP = 0 the whole array is write-protected");
  cmd->add_option("--set", *settings,
                  "Simulator setting KEY=VALUE (rx_lag=0, profile=lenient, t_se_us=..., ...)");
  add_json_flag(*cmd, context);
  cmd->callback([args, state, image, flags, settings, &context] {
    create(*args, *state, *image, (*flags)[0], (*flags)[1], (*flags)[2], *settings, context);
  });
}

void add_status_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand(
      "status", "Show a simulated board: state, status registers, faults, last run");
  auto args = std::make_shared<SimArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    hw_cli::print_report(sim::stored_board_status(store_of(*args), args->name), context);
  });
}

void add_power_cycle_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand("power-cycle",
                                 "Power the board off and on (restores power after a power loss)");
  auto args = std::make_shared<SimArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    hw_cli::print_report(sim::power_cycle_board(store_of(*args), args->name), context);
  });
}

void add_load_driver_command(CLI::App &sim, CliContext &context) {
  auto *cmd =
      sim.add_subcommand("load-driver", "Let a driver start the PSP secure OS (BOOTED → SOS)");
  auto args = std::make_shared<SimArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    hw_cli::print_report(sim::load_driver_on_board(store_of(*args), args->name), context);
  });
}

void add_fault_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand(
      "fault", "Arm faults (navi31-flash.md §10.9), e.g. power-loss:op=erase,nth=4");
  auto args = std::make_shared<SimArgs>();
  auto specs = std::make_shared<std::vector<std::string>>();
  auto clear = std::make_shared<bool>(false);
  add_name(*cmd, *args);
  cmd->add_option(
      "SPEC", *specs,
      "bitflip:addr=A,bit=B[,sticky] | erase-fail:sector=S | program-fail:page=P | "
      "stuck-busy[:op=..][,nth=N] | slow:factor=F | rom-sw-hang[:nth=N] | "
      "rom-sw-gate[:nth=N] | wren-ignored | protect:cmp=1[,bp=N][,lock] | jedec:id=X | "
      "power-loss:op=erase|program|wrsr,nth=N | psp:mode=... | aperture:mode=mirror|absent | "
      "usb:... | link-down:nth=N");
  cmd->add_flag("--clear", *clear, "Remove every armed fault first");
  add_json_flag(*cmd, context);
  cmd->callback([args, specs, clear, &context] {
    if (specs->empty() && !*clear) throw Error(ErrorKind::Usage, "give a fault SPEC or --clear");
    hw_cli::print_report(sim::arm_board_faults(store_of(*args), args->name, *specs, *clear),
                         context);
  });
}

void add_configure_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand(
      "configure", "Change simulator settings KEY=VALUE (rx_lag, profile, t_se_us, ...)");
  auto args = std::make_shared<SimArgs>();
  auto settings = std::make_shared<std::vector<std::string>>();
  add_name(*cmd, *args);
  cmd->add_option("SETTING", *settings, "KEY=VALUE")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, settings, &context] {
    hw_cli::print_report(sim::configure_board(store_of(*args), args->name, *settings), context);
  });
}

void add_export_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand(
      "export", "Write the simulated chip's bytes to a file (read behind the tools' back)");
  auto args = std::make_shared<SimArgs>();
  auto out = std::make_shared<std::string>();
  add_name(*cmd, *args);
  cmd->add_option("OUT", *out, "Output file (written atomically)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, out, &context] {
    print_report(sim::export_board(store_of(*args), args->name, *out), context);
  });
}

void add_remove_command(CLI::App &sim, CliContext &context) {
  auto *cmd = sim.add_subcommand("remove", "Delete a simulated board");
  auto args = std::make_shared<SimArgs>();
  add_name(*cmd, *args);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    auto store = store_of(*args);
    store.remove(args->name);
    print_report(sim::BoardRemovalReport{args->name}, context);
  });
}

}  // namespace

void register_sim_commands(CLI::App &app, CliContext &context) {
  auto *sim = app.add_subcommand(
      "sim", "Simulated Navi31 boards: create, inspect, power-cycle, inject faults");
  sim->require_subcommand(1);
  add_create_command(*sim, context);
  add_status_command(*sim, context);
  add_power_cycle_command(*sim, context);
  add_load_driver_command(*sim, context);
  add_fault_command(*sim, context);
  add_configure_command(*sim, context);
  add_export_command(*sim, context);
  add_remove_command(*sim, context);
}

}  // namespace wavectl
