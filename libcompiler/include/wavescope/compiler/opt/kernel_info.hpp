#pragma once
// A kernel's KernelInfo (the SINK's arg, tinygrad's record; kept as its Python repr in a
// ForeignArg, as a rewrites.pkl has it): the name, the opts applied so far, the opts to apply
// (None: the optimizer chooses; an empty tuple: none), and whether locals are forbidden.
//
//   KernelInfo(name='r_64_64_4', applied_opts=(Opt(op=OptOps.UNROLL, axis=0, arg=4),))

#include <optional>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/opt/opt.hpp"

namespace wavescope::compiler::opt {

struct KernelInfo {
  std::string name;  // "" when the kernel has none
  std::vector<Opt> applied_opts;
  std::optional<std::vector<Opt>> opts_to_apply;
  bool dont_use_locals = false;
};

// The KernelInfo of a kernel's SINK (an empty one when it has none). Error(BadInput) for opts
// it cannot read.
KernelInfo kernel_info_of(const UOp &sink);
// The SINK arg carrying `info`.
Arg to_arg(const KernelInfo &info);

// `sink` set up to be optimized as `choice` says: the heuristic (no opts to apply, none applied),
// nothing (an empty tuple of opts to apply) or the list. The CLI's --heuristic/--noopt/--opts.
UOp with_opt_choice(const UOp &sink, const OptChoice &choice);

}  // namespace wavescope::compiler::opt
