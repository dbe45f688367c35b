#pragma once
// What a renderer offers the lowering (spec §8.1): the ops it renders natively (which steers the
// decompositions: MAX, MULACC, FDIV, NEG/SUB, ...), whether it has workgroups with LOCAL memory
// and barriers, and the vector widths its loads and stores take (memory coalescing).
//
//   c        plain C11 for the host (gcc or clang): no MAX (where(a<b, b, a)), float4/float2
//            through `vector_size` types
//   cpu      LLVM IR for the host: MAX, FDIV, vectors <4 x T>/<2 x T>
//   gfx1100, gfx1201, gfx950
//            LLVM IR for AMDGPU: MAX, FDIV, MULACC, LOCAL memory, barriers, workgroup ids; no
//            float64 EXP2, LOG2 or SIN (LLVM 22's AMDGPU back end cannot select them), which the
//            late decompositions expand (transcendental.cpp)

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/compiler/ir/dtype.hpp"
#include "wavescope/compiler/ir/ops.hpp"

namespace wavescope::compiler::lower {

enum class TargetKind : std::uint8_t { C, LlvmCpu, Amdgpu };

struct RenderTarget {
  std::string name;  // "c", "cpu", "gfx1100", ...
  TargetKind kind = TargetKind::C;
  OpSet ops;                            // ALU ops rendered natively
  OpSet float64_lacks;                  // of those, the ones it cannot render for float64
  bool has_local = false;               // workgroups, LOCAL buffers, barriers, SPECIAL ids
  std::vector<unsigned> vector_widths;  // lanes a global load/store may take, widest first
  std::int64_t max_local_size = 1;      // work-items per workgroup at most

  bool supports(Op op) const { return ops.contains(op); }
  bool supports(Op op, DType t) const {
    return supports(op) && !(t.base() == dtypes::float64 && float64_lacks.contains(op));
  }
  bool is_gpu() const { return kind == TargetKind::Amdgpu; }
};

// The target of a name: "c", "cpu" or an AMDGPU processor (gfx1100, gfx1201, gfx950). Throws
// Error(Usage) naming the known ones.
const RenderTarget &render_target(std::string_view name);
// Every target name, host targets first.
const std::vector<std::string> &render_target_names();

}  // namespace wavescope::compiler::lower
