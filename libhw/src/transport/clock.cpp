#include "wavescope/hw/transport/clock.hpp"

#include <thread>

namespace wavescope::hw {

Clock::TimePoint SystemClock::now() const {
  return std::chrono::time_point_cast<Duration>(std::chrono::steady_clock::now());
}

void SystemClock::sleep(Duration duration) { std::this_thread::sleep_for(duration); }

}  // namespace wavescope::hw
