// wavectl am discovery: parse an IP discovery binary (am-driver.md §3) from a file, or the
// synthetic ROM of a fake chip profile. Reading it from a real GPU's VRAM is not implemented yet.

#include <iostream>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/hw/am/discovery_report.hpp"

namespace wavectl {

void register_am_commands(CLI::App &app, CliContext &context) {
  auto *am = app.add_subcommand("am", "AM userspace-driver tools (tier 1; no real-GPU path yet)");
  am->require_subcommand(1);
  auto *cmd = am->add_subcommand(
      "discovery", "Parse an IP discovery table: --table FILE or --profile NAME (fake chip)");
  auto table = std::make_shared<std::string>();
  auto profile = std::make_shared<std::string>();
  auto no_checksum = std::make_shared<bool>(false);
  cmd->add_option("--table", *table, "A discovery binary (e.g. dumped from VRAM top - 64 KiB)");
  cmd->add_option("--profile", *profile,
                  "A fake chip profile: tinygrad-mock, navi31, navi48, mi300x, mi300x-harvest");
  cmd->add_flag("--no-checksum", *no_checksum, "Do not verify the table checksums (AM does not)");
  add_json_flag(*cmd, context);
  cmd->callback([table, profile, no_checksum, &context] {
    namespace am = wavescope::hw::am;
    if (table->empty() == profile->empty())
      throw wavescope::Error(wavescope::ErrorKind::Usage,
                             "am discovery: give exactly one of --table FILE or --profile NAME");
    std::vector<std::uint8_t> bytes;
    std::string source;
    if (!table->empty()) {
      bytes = wavescope::read_file_bytes(*table);
      source = *table;
    } else {
      bytes = am::build_discovery_rom(am::chip_profile(*profile));
      source = "profile:" + *profile;
    }
    const auto t = am::parse_ip_discovery(bytes, {!*no_checksum});
    hw_cli::print_report(am::DiscoveryReport{source, t}, context);
  });
}

}  // namespace wavectl
