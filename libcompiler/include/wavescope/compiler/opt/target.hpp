#pragma once
// What the optimizer and the front half of the lowering need to know about a target (tinygrad's
// Renderer fields): whether it launches a grid of workgroups with local ids and shared memory,
// whether it splits loops across CPU threads, and the launch limits.
//
//   c, cpu                  the host: no locals, one thread (our host kernels run on one thread)
//   gfx1100, gfx1201, gfx950  AMD GPUs: workgroups, LOCAL memory of 64 KiB, AMD's grid limits

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wavescope::compiler::opt {

struct Target {
  std::string name;
  bool gpu = false;          // launched as a grid: GLOBAL/LOCAL ranges become SPECIAL ids
  bool has_local = false;    // LOCAL axes and work-item ids
  bool has_shared = false;   // LOCAL (workgroup-shared) memory
  bool has_threads = false;  // THREAD axes (split across CPU threads)
  std::int64_t threads = 1;  // the most THREAD axis extent (tinygrad: global_max[0] on the CPU)
  std::array<std::int64_t, 3> global_max{0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF};
  std::array<std::int64_t, 3> local_max{0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF};
  std::int64_t shared_max = 32768;  // bytes of LOCAL memory
};

// The target called `name` ("c", "cpu", "gfx1100", "gfx1201", "gfx950"); Error(Usage) naming
// the known ones for any other.
const Target &target(std::string_view name);
const std::vector<std::string> &target_names();

// The host CPU as tinygrad's CPU device describes itself with `threads` threads: THREAD axes
// allowed up to that many (they run as plain loops here). For comparing names with tinygrad's.
Target cpu_with_threads(std::int64_t threads);

}  // namespace wavescope::compiler::opt
