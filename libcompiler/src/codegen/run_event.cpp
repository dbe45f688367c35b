// Timed host-kernel runs (run_event.hpp).

#include "wavescope/compiler/codegen/run_event.hpp"

#include <chrono>

namespace wavescope::compiler::codegen {

RunEvent timed_run(const HostRunner &runner, std::vector<kernel::HostBuffer> &buffers,
                   const UOp &sink, std::string_view target) {
  RunEvent e;
  e.kernel = kernel::kernel_name(sink);
  e.target = std::string(target);
  e.estimates = kernel::estimate(sink);
  // The start on the wall clock (comparable across runs), the length on the steady clock.
  const auto wall = std::chrono::system_clock::now();
  const auto begin = std::chrono::steady_clock::now();
  runner(buffers);
  const auto length = std::chrono::steady_clock::now() - begin;
  e.start_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall.time_since_epoch()).count();
  e.end_ns = e.start_ns + std::chrono::duration_cast<std::chrono::nanoseconds>(length).count();
  return e;
}

}  // namespace wavescope::compiler::codegen
