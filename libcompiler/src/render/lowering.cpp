// The shared lowering passes (lowering.hpp).

#include "wavescope/compiler/render/lowering.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/opt/target.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::render {
namespace {

using namespace rewrite;

const Arg kAddrTag = std::string("addr");

const PatternMatcher &add_loads_rules() {
  static const PatternMatcher pm(
      "add loads",
      {
          rule("read INDEX -> LOAD(INDEX)",
               pat(Op::INDEX, {pat_any_src(Op::PARAM).named("buf"), var("i")})
                   .with_tag(Arg{})
                   .named("x"),
               [](const Match &m) {
                 return UOp::make(Op::LOAD, m["x"].dtype(), {m["x"].with_tag(kAddrTag)});
               }),
          rule("STORE(LOAD(idx), v) -> STORE(idx, v)",
               pat(Op::STORE, {pat(Op::LOAD, {var("idx")}), var("v")}, true).named("st"),
               [](const Match &m) {
                 std::vector<UOp> src = m["st"].src();
                 src[0] = m["idx"];
                 return m["st"].with_src(std::move(src));
               }),
      });
  return pm;
}

const PatternMatcher &early_decomposition_rules() {
  static const PatternMatcher pm(
      "early decompositions",
      {
          rule("x//y -> cdiv(x, y) for x >= 0, y > 0", pat(Op::FLOORDIV, {var("x"), var("y")}),
               [](const Match &m) -> UOp {
                 if (m["x"].vmin() < 0 || m["y"].vmin() <= 0) return {};
                 return UOp::make(Op::CDIV, m.root().dtype(), {m["x"], m["y"]});
               }),
          rule("x%y -> cmod(x, y) for x >= 0, y > 0", pat(Op::FLOORMOD, {var("x"), var("y")}),
               [](const Match &m) -> UOp {
                 if (m["x"].vmin() < 0 || m["y"].vmin() <= 0) return {};
                 return UOp::make(Op::CMOD, m.root().dtype(), {m["x"], m["y"]});
               }),
      });
  return pm;
}

RewriteOptions named(const char *name) {
  RewriteOptions o;
  o.name = name;
  return o;
}

}  // namespace

UOp lower_kernel(const UOp &sink, const opt::Target &target, LaunchDims *launch) {
  kernel::validate_kernel(sink);
  LaunchDims dims;
  UOp g = opt::lower_front_half(sink, target, dims);
  g = graph_rewrite(g, add_loads_rules(), named("add loads"));
  g = graph_rewrite(g, early_decomposition_rules(), named("early decompositions"));
  if (launch) *launch = dims;
  return g;
}

UOp lower_kernel(const UOp &sink) { return lower_kernel(sink, opt::target("c")); }

std::string launch_text(const LaunchDims &dims) {
  return fmt::format("{}x{}x{} workgroups of {}x{}x{}", dims.workgroups[0], dims.workgroups[1],
                     dims.workgroups[2], dims.local[0], dims.local[1], dims.local[2]);
}

}  // namespace wavescope::compiler::render
