#include "wavescope/hw/transport/transport_eta.hpp"

namespace wavescope::hw {

EtaEstimator transport_eta(const Clock &clock, const Mmio &bar5) {
  return EtaEstimator([&clock] { return clock.now().time_since_epoch(); },
                      [&bar5] { return bar5.stats().operations(); });
}

}  // namespace wavescope::hw
