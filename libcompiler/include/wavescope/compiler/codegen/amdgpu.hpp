#pragma once
// AMDGPU code objects: a kernel lowered for the GPU target (lower/lowering.hpp: every pass of
// spec §5.2 incl. "add gpudims", the §7 linearizer), rendered as LLVM IR for amdgcn-amd-amdhsa
// (amdgpu_kernel, buffers in addrspace(1), workgroup/work-item ids), optimized and compiled in
// process by LLVM's AMDGPU backend, and linked by LLVM 22's lld (linker.hpp: in process, or its
// ld.lld program) into a one-kernel code object.

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::codegen {

// The processors code objects are made for: gfx1100, gfx1201, gfx950.
const std::vector<std::string> &amdgpu_targets();
bool is_amdgpu_target(const std::string &name);

struct AmdgpuKernel {
  std::string name;       // the kernel's name (kernel_name)
  std::string symbol;     // its symbol in the code object (a C identifier)
  std::string processor;  // gfx1100, ...
  lower::Launch launch;
  std::size_t local_bytes = 0;              // LOCAL buffers: the group segment the kernel needs
  std::vector<lower::ScalarParam> scalars;  // its variables, by value after the buffers
  std::string llvm_ir;                      // as rendered, before optimization
  std::string assembly;                     // LLVM's assembly (when asked for)
  std::vector<std::uint8_t> code_object;    // the linked ELF
};

// The LLVM IR and launch of a kernel for AMDGPU (lowered, gpudims added, rendered).
AmdgpuKernel render_amdgpu(const UOp &sink, const std::string &processor);

// Compiles for `processor` (Error(Usage) for one not in amdgpu_targets()); with `assembly` also
// LLVM's assembly text. Link failures are Error(BadInput) with lld's output.
AmdgpuKernel compile_amdgpu(const UOp &sink, const std::string &processor, bool assembly = false);

// Compiles a kernel that is already lowered for `processor` (lower::lower, or a graph built by
// hand and run through lower::lower_back_half and lower::linearize).
AmdgpuKernel compile_lowered(const lower::LoweredKernel &kernel, const std::string &processor,
                             bool assembly = false);

}  // namespace wavescope::compiler::codegen
