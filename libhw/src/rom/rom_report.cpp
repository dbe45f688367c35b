#include "wavescope/hw/rom/rom_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "transport/transport_stats_json.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/transport/transport_report.hpp"

namespace wavescope::hw::rom {

std::string to_json(const RomDumpReport &report) {
  const auto &r = report.result;
  return json_line(
      nlohmann::json{{"device", report.device},
                     {"output", report.output},
                     {"bytes", r.bytes.size()},
                     {"sha256", r.sha256},
                     {"reread_pages", r.reread_pages},
                     {"restored", {{"rom_cntl", r.rom_cntl}, {"rom_index", r.rom_index}}},
                     {"transport", transport_stats_json(report.transport)}});
}

std::string to_text(const RomDumpReport &report) {
  const auto &r = report.result;
  return fmt::format(
      "dumped 2 MiB through ROM_DATA to {}, SHA-256 {}\nrestored ROM_CNTL 0x{:08X} and "
      "ROM_INDEX 0x{:06X}; {}\n",
      report.output, r.sha256, r.rom_cntl, r.rom_index, to_text(report.transport));
}

}  // namespace wavescope::hw::rom
