#pragma once
// The LLVM IR renderer (spec §8.3): a lowered kernel's linearized list (lower/lowering.hpp) as a
// textual LLVM module with opaque pointers, for the host CPU or for AMDGPU.
//
// CPU: `define void @NAME(ptr noalias align 16 %data0, ..., i32 %var1)` plus an entry point
// `void wavescope_entry(ptr %args)` taking a pointer per argument in slot order (a scalar's points
// to an i64). AMDGPU: `define amdgpu_kernel void @NAME(ptr addrspace(1) noalias align 16 %data0,
// ..., i32 %var1)`; SPECIAL gidxN/lidxN are llvm.amdgcn.workgroup.id/workitem.id; LOCAL buffers
// are `addrspace(3)` module globals; BARRIER is a workgroup release fence, s.barrier and an
// acquire fence; "amdgpu-flat-work-group-size" and !reqd_work_group_size from the launch.
// RANGE/END: header block with the counter's phi, body, footer, exit. REG buffers are allocas
// (addrspace(5) on AMDGPU). Vectors are <n x T> (insertelement/extractelement); a SHRINK access
// loads or stores <n x T>. Gated loads branch around the load and merge with a phi; IF/ENDIF
// branch around gated stores. Bools are i1 in registers, i8 in memory.

#include <string>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::render {

struct LlvmTarget {
  bool amdgpu = false;
};

// Throws Error(BadInput) naming the node and its list position for an op or dtype the renderer
// does not support.
std::string render_llvm_ir(const lower::LoweredKernel &kernel, const LlvmTarget &target = {});

// The LLVM IR of a kernel AST for the CPU: lower for "cpu", render.
std::string llvm_ir_for_cpu(const UOp &sink);

}  // namespace wavescope::compiler::render
