// The renderer descriptions (target.hpp).

#include "wavescope/compiler/lower/target.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::lower {
namespace {

// What every renderer of ours has.
constexpr OpSet kCommonOps{Op::EXP2,  Op::LOG2,  Op::SIN,   Op::SQRT, Op::RECIPROCAL, Op::NEG,
                           Op::TRUNC, Op::ADD,   Op::SUB,   Op::MUL,  Op::CDIV,       Op::CMOD,
                           Op::SHL,   Op::SHR,   Op::AND,   Op::OR,   Op::XOR,        Op::CMPLT,
                           Op::CMPNE, Op::CMPEQ, Op::WHERE, Op::POW};

RenderTarget make(std::string name, TargetKind kind) {
  RenderTarget t;
  t.name = std::move(name);
  t.kind = kind;
  t.ops = kCommonOps;
  switch (kind) {
  case TargetKind::C: t.vector_widths = {4, 2}; break;
  case TargetKind::LlvmCpu:
    t.ops = t.ops | OpSet{Op::MAX, Op::FDIV};
    t.vector_widths = {4, 2};
    break;
  case TargetKind::Amdgpu:
    // POW as tinygrad lowers it (exp2, log2 and fix-ups): LLVM's own expansion of llvm.pow uses
    // v_mul_legacy / v_dual_mul_dx9_zero, which tinygrad's emulator cannot run
    t.ops = (t.ops - OpSet{Op::POW}) | OpSet{Op::MAX, Op::FDIV, Op::MULACC};
    // LLVM 22 cannot select f64 exp2/log2/sin for AMDGPU; f64 SQRT and FDIV it expands itself
    t.float64_lacks = {Op::EXP2, Op::LOG2, Op::SIN};
    t.has_local = true;
    t.vector_widths = {4, 2};
    t.max_local_size = 256;
    break;
  }
  return t;
}

const std::vector<RenderTarget> &targets() {
  static const std::vector<RenderTarget> t{
      make("c", TargetKind::C), make("cpu", TargetKind::LlvmCpu),
      make("gfx1100", TargetKind::Amdgpu), make("gfx1201", TargetKind::Amdgpu),
      make("gfx950", TargetKind::Amdgpu)};
  return t;
}

}  // namespace

const RenderTarget &render_target(std::string_view name) {
  for (const auto &t : targets())
    if (t.name == name) return t;
  throw Error(ErrorKind::Usage,
              fmt::format("unknown target '{}' (c, cpu, gfx1100, gfx1201 or gfx950)", name));
}

const std::vector<std::string> &render_target_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &t : targets()) n.push_back(t.name);
    return n;
  }();
  return names;
}

}  // namespace wavescope::compiler::lower
