#pragma once
// What `psp probe` and `psp ifwi-all` report, and their printers: JSON (one object, one line) and
// text.

#include <string>

#include "wavescope/hw/psp/psp_procedures.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::psp {

struct PspProbeReport {
  std::string device;
  const PspProbeResult &result;
  TransportStats transport;
};
std::string to_json(const PspProbeReport &report);
std::string to_text(const PspProbeReport &report);

struct IfwiAllReport {
  std::string device;
  std::string image;
  const IfwiAllResult &result;
  TransportStats transport;
};
std::string to_json(const IfwiAllReport &report);
std::string to_text(const IfwiAllReport &report);

}  // namespace wavescope::hw::psp
