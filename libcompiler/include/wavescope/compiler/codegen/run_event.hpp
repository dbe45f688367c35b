#pragma once
// A timed run of a host kernel, as a profile event: the kernel, the target, when it started and
// ended, and its cost estimates. libcompiler knows no profile format; the CLI turns these into a
// trace the app's timeline opens (wavectl run --profile).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/kernel/estimates.hpp"

namespace wavescope::compiler::codegen {

struct RunEvent {
  std::string kernel, target;
  std::int64_t start_ns = 0, end_ns = 0;  // the system clock (ns since the Unix epoch)
  kernel::Estimates estimates;
  double seconds() const { return static_cast<double>(end_ns - start_ns) * 1e-9; }
};

// Runs `runner` once on `buffers` and times it.
RunEvent timed_run(const HostRunner &runner, std::vector<kernel::HostBuffer> &buffers,
                   const UOp &sink, std::string_view target);

}  // namespace wavescope::compiler::codegen
