#pragma once
// What `devices` reports — the real bridges and cards and the simulated boards list_devices
// finds — and its printers: JSON (one object per device, one line each) and a text table.

#include <string>
#include <vector>

#include "wavescope/hw/device.hpp"

namespace wavescope::hw::device {

struct DeviceListReport {
  std::vector<DeviceListing> devices;
};

// One line per device (keys sorted); empty when there is none.
std::string to_json(const DeviceListReport &report);
// A table of the devices, or a sentence saying there are none.
std::string to_text(const DeviceListReport &report);

}  // namespace wavescope::hw::device
