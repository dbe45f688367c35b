#pragma once
// The hardware area's subcommand families.

#include "commands/registry.hpp"

namespace wavectl {
void register_devices_commands(CLI::App &app, CliContext &context);  // devices
void register_sim_commands(CLI::App &app, CliContext &context);      // sim create|status|...
void register_sim_am_commands(CLI::App &app, CliContext &context);   // sim-am create|status|...
void register_flash_commands(CLI::App &app, CliContext &context);    // flash info|read|dump|...
void register_psp_commands(CLI::App &app, CliContext &context);      // psp probe|ifwi-all
void register_rom_commands(CLI::App &app, CliContext &context);      // rom dump
void register_ifwi_commands(CLI::App &app, CliContext &context);     // ifwi inspect|make-test-image
void register_am_commands(CLI::App &app, CliContext &context);       // am discovery|vm
void register_am_queue_commands(CLI::App &app, CliContext &context);  // am ih|ring (after am)
void register_regs_commands(CLI::App &app, CliContext &context);      // regs find|decode|read|write
}  // namespace wavectl
