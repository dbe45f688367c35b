#pragma once
// What `am discovery` reports, and its printers: JSON (one object, one line) and text.

#include <string>

#include "wavescope/hw/am/ip_discovery.hpp"

namespace wavescope::hw::am {

struct DiscoveryReport {
  std::string source;  // the table file or "profile:NAME"
  const DiscoveryTable &table;
};

std::string to_json(const DiscoveryReport &report);
std::string to_text(const DiscoveryReport &report);

}  // namespace wavescope::hw::am
