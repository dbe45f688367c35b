#pragma once
// A kernel's program, as tinygrad's to_program makes it (spec viz.md a.3): one graph_rewrite
// named "linearize/render" on PROGRAM(SINK) whose matches add, in order, the linearized list, the
// rendered text and, when the kernel was compiled, the binary:
//
//   PROGRAM(SINK) -> PROGRAM(SINK, LINEAR) -> PROGRAM(SINK, LINEAR, SOURCE)
//                 -> PROGRAM(SINK, LINEAR, SOURCE, BINARY)
//
// LINEAR's sources are the linearized list (IF/ENDIF included), SOURCE's arg the rendered text (C
// for "c", LLVM IR for "cpu" and the GPU targets), BINARY's arg the code object's bytes
// (ForeignArg "bytes", as a tinygrad trace holds them). Recorded in the thread's active
// RewriteTrace after the kernel was linearized, rendered and compiled, so that a trace viewer
// offers VIZ's "View UOp List", "View Source" and "View Disassembly" steps
// (rewrite/program_views.hpp) on our kernels as on tinygrad's. The matches attach what the
// linearizer, renderer and compiler made; their times are of that, not of the work itself.

#include <cstdint>
#include <span>
#include <string>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::lower {

struct ProgramParts {
  std::string target;                    // "c", "cpu", "gfx1100", ...
  std::string source;                    // the rendered program
  std::span<const std::uint8_t> binary;  // the code object; empty when not compiled
};

// PROGRAM(kernel.sink, LINEAR(kernel.program), SOURCE[, BINARY]) made by the "linearize/render"
// rewrite, recorded when a trace session is active on this thread. The PROGRAM's arg names the
// kernel and the target ("r_8_64_16_4_4_32_3_3 for gfx1100 · 8x64x1 workgroups of 16x1x1").
UOp record_program(const LoweredKernel &kernel, const ProgramParts &parts);

}  // namespace wavescope::compiler::lower
