#include "wavescope/hw/device/device_list_report.hpp"

#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"

namespace wavescope::hw::device {

std::string to_json(const DeviceListReport &report) {
  std::string out;
  for (const auto &d : report.devices) {
    if (!out.empty()) out += '\n';
    out += json_line(nlohmann::json{
        {"id", d.id}, {"kind", d.kind}, {"state", d.state}, {"description", d.description}});
  }
  return out;
}

std::string to_text(const DeviceListReport &report) {
  if (report.devices.empty())
    return "no devices: no ASM24 USB bridge, no PCI Navi31 card and no simulated board\n";
  TextTable table({"DEVICE", "KIND", "STATE", "DESCRIPTION"});
  for (const auto &d : report.devices) table.add_row({d.id, d.kind, d.state, d.description});
  return table.render();
}

}  // namespace wavescope::hw::device
