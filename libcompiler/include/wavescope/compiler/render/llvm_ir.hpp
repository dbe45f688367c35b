#pragma once
// The LLVM IR renderer (spec §8.3): a lowered kernel's linear program (linear_program.hpp) as a
// textual LLVM module with opaque pointers, for the host CPU or for AMDGPU.
//
// CPU: `define void @NAME(ptr noalias %data0, ...)` and an entry point
// `void wavescope_entry(ptr %args)` taking the buffers in slot order. AMDGPU: `define
// amdgpu_kernel void @NAME(ptr addrspace(1) noalias %data0, ...)`, SPECIAL gidxN/lidxN as
// llvm.amdgcn.workgroup.id / workitem.id, "amdgpu-flat-work-group-size" from the launch.
// Loops: header block with the counter's phi, body, footer, exit. Reduce accumulators are
// allocas (promoted to registers by the optimizer); gated loads branch around the load and
// merge with a phi, gated stores branch around the store. Bools are i1 in registers, i8 in memory.

#include <string>

#include "wavescope/compiler/render/linear_program.hpp"
#include "wavescope/compiler/render/lowering.hpp"

namespace wavescope::compiler::render {

struct LlvmTarget {
  bool amdgpu = false;
  LaunchDims launch;  // AMDGPU: the work-group size attribute
};

// Throws Error(BadInput) naming the node for an op or dtype the renderer does not support.
std::string render_llvm_ir(const LinearProgram &program, const LlvmTarget &target = {});

// The LLVM IR of a kernel AST for the CPU: lower_kernel, linearize, render.
std::string llvm_ir_for_cpu(const UOp &sink);

}  // namespace wavescope::compiler::render
