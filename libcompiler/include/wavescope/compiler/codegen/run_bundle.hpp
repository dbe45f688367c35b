#pragma once
// A kernel's run saved for another machine: the inputs it was given and the outputs the CPU
// computed, as raw little-endian files in the arguments' element types, a code object per AMDGPU
// target, and a manifest.json that says how to launch each (arguments in kernarg order, element
// counts, which are written, workgroup counts and size) and how close a result must be. A GPU, or
// an emulator, runs the code object on the saved inputs and compares with the saved outputs.
//
// manifest.json (format "wavescope-run/1"):
//   {"format", "kernel", "cpu_target", "seed", "tolerance": {"atol", "rtol"},
//    "args": [{"index", "slot", "name", "dtype", "elements", "bytes", "written",
//              "kernarg_offset", "input", "output"}],          // output null when not written
//    "scalars": [{"name", "dtype", "value", "min", "max"}],   // the kernel's variables
//    "targets": {"gfx1100": {"code_object", "symbol", "workgroups": [x, y, z],
//                            "workgroup_size": [x, y, z],
//                            // from the code object's metadata note (kernel_metadata.hpp):
//                            "descriptor",             // the kernel descriptor's symbol
//                            "kernarg_bytes",          // the kernarg segment's size
//                            "kernarg_offsets": [],    // each buffer's, in "args" order
//                            "scalar_offsets": {},     // each variable's, by name
//                            "hidden_args": [{"value_kind", "offset", "size"}],  // a runtime's
//                            "group_segment_bytes", "private_segment_bytes", "wavefront_size"},
//                ...}}

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/variables.hpp"

namespace wavescope::compiler::codegen {

struct RunBundle {
  std::string cpu_target;  // the host target that computed the outputs ("c" or "cpu")
  std::uint64_t seed = 0;  // of the random inputs (kernel::make_buffers)
  double atol = kernel::kDefaultAtol, rtol = kernel::kDefaultRtol;
  std::vector<kernel::HostBuffer> inputs;   // every argument as the kernel received it
  std::vector<kernel::HostBuffer> outputs;  // every argument after the CPU run
  kernel::VariableValues variables;         // the values the CPU run gave the kernel's variables
};

// Writes `bundle` for `kernel` into `folder` (created if missing; each file written atomically)
// and returns the files written, manifest.json last. Compiles the kernel for every AMDGPU target;
// the backends' errors pass through.
std::vector<std::filesystem::path> save_run(const std::filesystem::path &folder, const UOp &kernel,
                                            const RunBundle &bundle);

}  // namespace wavescope::compiler::codegen
