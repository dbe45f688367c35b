#pragma once
// Benchmarks time themselves in this thread's CPU time: the machine may be shared, so wall time
// would measure the neighbours too.

#include <ctime>

namespace wavescope::bench {

inline double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

}  // namespace wavescope::bench
