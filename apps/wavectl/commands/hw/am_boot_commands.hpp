#pragma once
// wavectl am boot|fini|smi (am_boot_commands.cpp).

#include "commands/registry.hpp"

namespace wavectl {
void register_am_boot_commands(CLI::App &am, CliContext &context);
}
