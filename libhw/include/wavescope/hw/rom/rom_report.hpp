#pragma once
// What `rom dump` reports, and its printers: JSON (one object, one line) and text.

#include <string>

#include "wavescope/hw/rom/rom_aperture.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::rom {

struct RomDumpReport {
  std::string device;
  std::string output;  // the file the image went to
  const RomDumpResult &result;
  TransportStats transport;
};

std::string to_json(const RomDumpReport &report);
std::string to_text(const RomDumpReport &report);

}  // namespace wavescope::hw::rom
