#pragma once
// A lowered kernel (lowering.hpp) as a flat list of steps in program order: the loop structure
// made explicit, every value computed once per scope before its first use, and reduces that
// depend only on open loops hoisted to the outermost loop defining their ranges (so softmax and
// layernorm stay O(N) per row). Renderers that emit block-structured code (LLVM IR) walk this
// list; scopes are the loops: a value computed inside a loop is visible until its LoopEnd.

#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

namespace wavescope::compiler::render {

struct LinearStep {
  enum class Kind {
    Value,         // compute `node` (its sources were computed before, in this scope or outside)
    LoopBegin,     // open the loop of RANGE `node` (its extent was computed before); new scope
    LoopEnd,       // close the loop of RANGE `node`; its scope ends
    ReduceBegin,   // the accumulator of REDUCE `node` is set to the identity of its op
    ReduceUpdate,  // acc = acc (op) value of node.src(0)
    ReduceEnd,     // after its loops: the REDUCE's value is the accumulator's
    Store,         // STORE `node` (index, value and gate computed before)
  };
  Kind kind = Kind::Value;
  UOp node;
};

struct LinearProgram {
  std::string name;  // the kernel's name (kernel_name)
  std::vector<kernel::KernelParam> params;
  std::vector<LinearStep> steps;
};

// Throws Error(BadInput) naming the node for a graph the walk does not know (a statement that is
// not GROUP/END/STORE, a loop over something else than a RANGE, a RANGE used outside its loop).
LinearProgram linearize(const UOp &lowered);

std::string_view step_kind_name(LinearStep::Kind kind);

}  // namespace wavescope::compiler::render
