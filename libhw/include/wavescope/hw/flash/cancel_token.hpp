#pragma once
// How a user interrupts a long flash operation (navi31-flash.md §9.9). The CLI's SIGINT handler
// calls request(); the first request asks the tool to finish the current sector and stop cleanly,
// the second to stop at the next register access. Safe to call from a signal handler.

#include <atomic>

namespace wavescope::hw::flash {

class CancelToken {
public:
  void request() noexcept { count_.fetch_add(1, std::memory_order_relaxed); }
  // Finish the unit of work in progress, then stop.
  bool stop_requested() const noexcept { return count_.load(std::memory_order_relaxed) >= 1; }
  // Stop now (at the next transaction boundary).
  bool abort_requested() const noexcept { return count_.load(std::memory_order_relaxed) >= 2; }
  int requests() const noexcept { return count_.load(std::memory_order_relaxed); }

private:
  std::atomic<int> count_{0};
};

}  // namespace wavescope::hw::flash
