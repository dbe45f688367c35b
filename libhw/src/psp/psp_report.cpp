#include "wavescope/hw/psp/psp_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "transport/transport_stats_json.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"
#include "wavescope/hw/psp/psp_mailbox.hpp"
#include "wavescope/hw/transport/transport_report.hpp"

namespace wavescope::hw::psp {

using nlohmann::json;

std::string to_json(const PspProbeReport &report) {
  const auto &r = report.result;
  json entries = json::array();
  for (const auto &e : r.entries)
    entries.push_back({{"command", e.command},
                       {"name", command_name(e.command)},
                       {"error", e.error},
                       {"error_text", error_text(e.error)},
                       {"response", e.response}});
  return json_line(json{{"device", report.device},
                        {"state", r.board.state_name()},
                        {"entries", entries},
                        {"update_gated", r.update_gated},
                        {"transfer_type", r.transfer_type ? json(*r.transfer_type) : json()},
                        {"advice", r.advice},
                        {"transport", transport_stats_json(report.transport)}});
}

std::string to_text(const PspProbeReport &report) {
  const auto &r = report.result;
  std::string out = fmt::format("device {} ({})\n", report.device, r.board.state_name());
  TextTable table({"COMMAND", "ERROR", "RESPONSE"},
                  {TextTable::Align::Left, TextTable::Align::Left, TextTable::Align::Right});
  for (const auto &e : r.entries)
    table.add_row({fmt::format("0x{:02X} {}", e.command, command_name(e.command)),
                   error_text(e.error), e.error ? "-" : fmt::format("0x{:08X}", e.response)});
  out += table.render();
  if (!r.advice.empty()) out += r.advice + '\n';
  return out;
}

std::string to_json(const IfwiAllReport &report) {
  const auto &r = report.result;
  json items = json::array();
  for (const auto &i : r.items)
    items.push_back({{"item", i.item},
                     {"phase", i.phase},
                     {"offset", i.offset},
                     {"size", i.size},
                     {"description", i.description}});
  return json_line(json{{"device", report.device},
                        {"image", report.image},
                        {"items", items},
                        {"completed", r.completed},
                        {"dwords", r.dwords},
                        {"power_cycle_required", r.completed},
                        {"transport", transport_stats_json(report.transport)}});
}

std::string to_text(const IfwiAllReport &report) {
  const auto &r = report.result;
  TextTable table({"ITEM", "PHASE", "OFFSET", "SIZE", "WHAT"},
                  {TextTable::Align::Left, TextTable::Align::Right, TextTable::Align::Right,
                   TextTable::Align::Right, TextTable::Align::Left});
  for (const auto &i : r.items)
    table.add_row({fmt::format("0x{:02X}", i.item), std::to_string(i.phase),
                   fmt::format("0x{:06X}", i.offset), fmt::format("0x{:X}", i.size),
                   i.description});
  return table.render() +
         fmt::format("the PSP reported completion after {} items ({} dwords): a hard power cycle "
                     "is required before the card boots the update\n{}\n",
                     r.items.size(), r.dwords, to_text(report.transport));
}

}  // namespace wavescope::hw::psp
