// The shared lowering passes (lowering.hpp).

#include "wavescope/compiler/render/lowering.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

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

void statements(const UOp &u, std::vector<UOp> &out) {
  if (u.op() == Op::GROUP)
    for (const auto &s : u.src()) statements(s, out);
  else
    out.push_back(u);
}

}  // namespace

UOp lower_kernel(const UOp &sink) {
  kernel::validate_kernel(sink);
  UOp g = graph_rewrite(sink, symbolic::sym(), named("initial symbolic"));
  g = graph_rewrite(g, add_loads_rules(), named("add loads"));
  g = graph_rewrite(g, early_decomposition_rules(), named("early decompositions"));
  return g;
}

UOp add_gpudims(const UOp &lowered, LaunchDims &dims) {
  dims = {};
  if (lowered.op() != Op::SINK) throw Error(ErrorKind::BadInput, "add gpudims: not a SINK");
  std::vector<UOp> stmts;
  for (const auto &s : lowered.src()) statements(s, stmts);
  // The loops every store shares, outermost first.
  std::vector<UOp> shared;
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    if (stmts[i].op() != Op::END) return lowered;
    std::vector<UOp> rs(stmts[i].src().begin() + 1, stmts[i].src().end());
    if (i == 0)
      shared = rs;
    else if (rs != shared)
      return lowered;
  }
  std::unordered_map<const UOpNode *, UOp> replace;
  std::size_t dim = 0;
  for (auto it = shared.rbegin(); it != shared.rend() && dim < 3; ++it) {
    const UOp &r = *it;
    if (r.op() != Op::RANGE) continue;
    const auto extent = r.src(0).const_value();
    if (!extent || !fits_int64(*extent) || *extent < 1 || *extent > (std::int64_t{1} << 31))
      continue;
    const auto n = static_cast<std::int64_t>(*extent);
    std::int64_t local = 1;
    if (dim == 0)
      for (std::int64_t l = kMaxLocalSize; l > 1; l /= 2)
        if (n % l == 0) {
          local = l;
          break;
        }
    const DType t = r.dtype();
    dims.workgroups[dim] = n / local;
    dims.local[dim] = local;
    UOp id = special(const_int(n / local, t), fmt::format("gidx{}", dim));
    if (local > 1)
      id = id * const_int(local, t) + special(const_int(local, t), fmt::format("lidx{}", dim));
    replace.emplace(r.get(), id);
    ++dim;
  }
  if (replace.empty()) return lowered;
  const PatternMatcher pm(
      "add gpudims",
      {
          rule("RANGE -> gidx*local + lidx", pat_any_src(Op::RANGE).named("r"),
               [&replace](const Match &m) -> UOp {
                 auto it = replace.find(m["r"].get());
                 return it == replace.end() ? UOp{} : it->second;
               }),
          rule("END drops loops that became gpu ids", pat_any_src(Op::END).named("e"),
               [](const Match &m) -> UOp {
                 const UOp &e = m["e"];
                 std::vector<UOp> src{e.src(0)};
                 for (std::size_t k = 1; k < e.size(); ++k)
                   if (e.src(k).op() == Op::RANGE) src.push_back(e.src(k));
                 if (src.size() == e.size()) return {};
                 return src.size() == 1 ? src[0] : e.with_src(std::move(src));
               }),
      });
  return graph_rewrite(lowered, pm, named("add gpudims"));
}

std::string launch_text(const LaunchDims &dims) {
  return fmt::format("{}x{}x{} workgroups of {}x{}x{}", dims.workgroups[0], dims.workgroups[1],
                     dims.workgroups[2], dims.local[0], dims.local[1], dims.local[2]);
}

}  // namespace wavescope::compiler::render
