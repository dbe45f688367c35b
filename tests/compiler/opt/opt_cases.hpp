#pragma once
// The kernels the optimizer's tests run (the built-in examples and, when the corpus is present,
// every kernel tinygrad generated for the tinygrad-viz workloads) and explicit opt lists that
// apply to each, made from the kernel's own axes.

#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/opt/opt.hpp"
#include "wavescope/compiler/opt/target.hpp"

namespace opt_cases {

struct Case {
  std::string label;  // "matmul/r_16_20_24", "softmax/2 r_32_32_4"
  wavescope::compiler::UOp kernel;
};

// The built-in examples' kernels, then the corpus kernels (none when the corpus is absent;
// `corpus_found` says whether it was).
std::vector<Case> all_kernels(bool *corpus_found = nullptr);

// Opt lists that apply to `kernel` on `target`: classic names (UPCAST, UNROLL), the SPLIT form
// (with a top split), and on targets with locals LOCAL and GROUPTOP. Lists a kernel has no axes
// for are left out.
std::vector<std::vector<wavescope::compiler::opt::Opt>>
explicit_lists(const wavescope::compiler::UOp &kernel, const wavescope::compiler::opt::Target &t);

}  // namespace opt_cases
