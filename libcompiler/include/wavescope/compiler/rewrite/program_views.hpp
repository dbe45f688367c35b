#pragma once
// What VIZ's view steps after a kernel's "linearize/render" rewrite show (spec viz.md a.3, a.10:
// /uops, /code, /asm), read from the PROGRAM that rewrite made — tinygrad's PROGRAM(SINK, LINEAR,
// SOURCE, BINARY) in a rewrites.pkl, or ours (lower/program.hpp) in a trace libcompiler wrote:
//
//   View UOp List     the LINEAR's sources, one line each (index, op, dtype, sources, arg)
//   View Source       the SOURCE's text (C, LLVM IR)
//   View Disassembly  the BINARY: an AMDGPU code object disassembled by the ISA layer, with the
//                     kernel's resources; other binaries (tinygrad's CPU objects) described
//
// Each part is taken from the first PROGRAM of the rewrite (its input, then its steps' results)
// that holds it, as VIZ takes it from the match that added it.

#include <cstddef>
#include <optional>
#include <string>

#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::rewrite {

enum class ProgramView { UOpList, Source, Disassembly };

// The text a view step shows, or nullopt when the rewrite's PROGRAM never held that part ("No
// source found" in VIZ's words, see missing_part_text).
std::optional<std::string> program_view_text(const RewriteTrace &trace, const TraceRewrite &rewrite,
                                             ProgramView view);

// What VIZ says when the part is missing: "No linear found", "No source found", "No binary found".
std::string missing_part_text(ProgramView view);

// The linearized list as text (tinygrad's print_uops): per node its index, op, the axes of the
// ranges it is in, dtype, sources and arg,
// "  55 LOAD                : 0,1,2      float                    [54] None"; sources as tinygrad
// prints its list: an index, a CONST's value quoted ('4'), '--' for a node outside the list; ops
// and dtypes a foreign trace names are kept.
std::string uop_list_text(const RewriteTrace &trace, std::uint64_t linear);

// A BINARY's bytes for the disassembly view: an AMDGPU code object as the ISA layer's listing
// (wavectl disasm's text) after a header with its resources (VGPRs, SGPRs, LDS, scratch); anything
// else described (an x86-64 ELF object, its size). Never throws: a code object the ISA layer
// refuses gives its message.
std::string disassembly_text(const std::string &bytes, const std::string &origin);

}  // namespace wavescope::compiler::rewrite
