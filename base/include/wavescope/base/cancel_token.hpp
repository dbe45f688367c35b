#pragma once
// How a user interrupts a long operation (a flash write, a dump, a firmware stream). The CLI's
// SIGINT handler calls request(); the first request asks the operation to finish the current unit
// of work and stop cleanly, the second to stop at the next device access. Safe to call from a
// signal handler.

#include <atomic>

namespace wavescope {

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

}  // namespace wavescope
