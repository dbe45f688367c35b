#pragma once
// Time for transports and protocols. Every timeout and poll goes through a Clock, so the
// simulator can run in virtual time and fault tests finish instantly.

#include <chrono>

namespace wavescope::hw {

class Clock {
public:
  using Duration = std::chrono::nanoseconds;
  using TimePoint = std::chrono::time_point<std::chrono::steady_clock, Duration>;
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  virtual void sleep(Duration duration) = 0;
};

// Real time (std::chrono::steady_clock and std::this_thread::sleep_for).
class SystemClock final : public Clock {
public:
  TimePoint now() const override;
  void sleep(Duration duration) override;
};

// Time that only moves when someone sleeps or advances it (simulator and tests).
class VirtualClock final : public Clock {
public:
  TimePoint now() const override { return now_; }
  void sleep(Duration duration) override { now_ += duration; }
  void advance(Duration duration) { now_ += duration; }

private:
  TimePoint now_{};
};

}  // namespace wavescope::hw
