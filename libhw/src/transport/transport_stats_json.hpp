#pragma once
// Private to libhw: the transport counts as a JSON object, for the reports that nest them.

#include <nlohmann/json.hpp>

#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw {

nlohmann::json transport_stats_json(const TransportStats &stats);

}  // namespace wavescope::hw
