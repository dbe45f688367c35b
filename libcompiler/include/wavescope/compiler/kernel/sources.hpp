#pragma once
// Where kernels come from for the command line and the tests: a built-in example name
// (frontend.hpp), a kernel JSON file (kernel_ast.hpp) or a tinygrad rewrites.pkl; and the result
// records printed for them.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/variables.hpp"

namespace wavescope::compiler::kernel {

// The kernels of SOURCE: a built-in example (elementwise, reduce, matmul, softmax, layernorm,
// conv2d), a kernel JSON file or a tinygrad rewrites.pkl (all its kernels). Throws Error(Usage) for
// a name that is neither, Error(BadInput) for a malformed file. With `only` non-empty, just the
// kernel of that name (Error(Usage) if none).
std::vector<UOp> load_kernels(const std::string &source, const std::string &only = {});

// The kernel ASTs of a tinygrad rewrites.pkl: per kernel context, the input graph of its first
// "View Base AST" step (VIZ's "View Base AST"), named by the context (color codes removed).
std::vector<UOp> tinygrad_kernels(const std::filesystem::path &path);

// One kernel's result of `wavectl run`.
struct RunRecord {
  std::string kernel, target;
  double max_abs_err = 0, max_rel_err = 0;
  std::size_t mismatches = 0;
  bool checked = false, ok = true;
  VariableValues variables;  // the values the run gave the kernel's variables (none: empty)
};
// {"kernel":..,"target":..,"max_abs_err":..,"max_rel_err":..,"mismatches":..,"ok":..}, with
// "variables": {"i": 10, ...} after "target" for a kernel with variables
std::string to_json_line(const RunRecord &r);
// "r_16_20_24  c  max abs 1.2e-07  max rel 3.4e-06  ok"; "r_(i*8)  c  i=10  max abs ..." for a
// kernel with variables
std::string to_text_line(const RunRecord &r);

}  // namespace wavescope::compiler::kernel
