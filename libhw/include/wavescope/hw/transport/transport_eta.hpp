#pragma once
// An ETA estimator (wavescope/base/progress_eta.hpp) that counts a transport's MMIO operations
// and reads time from the clock the operation waits on (virtual time on the simulator).

#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw {

// `clock` and `bar5` must outlive the estimator.
EtaEstimator transport_eta(const Clock &clock, const Mmio &bar5);

}  // namespace wavescope::hw
