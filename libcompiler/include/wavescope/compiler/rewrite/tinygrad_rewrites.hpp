#pragma once
// tinygrad's rewrite traces (rewrites.pkl, written at exit under VIZ=1, -1, 2 or -2) mapped onto
// RewriteTrace (spec viz.md a.2-a.4, compiler.md §3.2).
//
// The pickle holds a RewriteTrace: per context a TracingKey (display name, lookup keys), the
// context's TrackedGraphRewrite records (name, call site, depth, flags, input root and the
// matches: before, after, rule location, seconds) and one table of every UOp by trace number
// (op, dtype, sources, arg, tag). It is read from the pickle's object tree (base's pickle
// reader) by class and field name, never through tinygrad's classes, so traces of other tinygrad
// versions read too. Each context is a group, each record a rewrite, each match a step; the
// trace replays as VIZ replays it (ReplaySemantics::Viz).
//
// What tinygrad's pickle spells by number is named from tinygrad's own enums (Ops, AxisType,
// AddrSpace; tinygrad_names.hpp); dtypes are spelled by name. An op or dtype libcompiler lacks is
// kept by its name (TraceNode::foreign_op / foreign_dtype); a payload without a type here
// (KernelInfo, ProgramInfo, CallInfo, BINARY bytes, ...) is a ForeignArg holding its Python repr.
//
// Errors (Error(BadInput)) name the file and the byte offset of the offending value.

#include <cstdint>
#include <filesystem>
#include <span>

#include "wavescope/base/pickle_reader.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::rewrite {

// True when `head` (a file's first bytes) starts like a pickle (a PROTO opcode, protocol 2-5).
bool looks_like_pickle(std::span<const std::uint8_t> head);
// True when `head` (a file's first few KiB) starts like tinygrad's rewrites.pkl: a pickle whose
// first class is tinygrad's RewriteTrace. Cheap enough to sniff files with.
bool looks_like_tinygrad_rewrites(std::span<const std::uint8_t> head);

// Reads rewrites.pkl.
RewriteTrace read_tinygrad_rewrites(const std::filesystem::path &path);
// Maps an already read pickle; `source` names it in errors.
RewriteTrace tinygrad_rewrites_from(const pickle::PickleDocument &document,
                                    const std::filesystem::path &source);

}  // namespace wavescope::compiler::rewrite
