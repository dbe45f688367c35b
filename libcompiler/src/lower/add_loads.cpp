// Stage 13: expand broadcast / add loads (passes.hpp).

#include <algorithm>

#include "lower_util.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;
using detail::is_address;

// u with LOAD(s) for every source from `first` on that is an address (a read used as a value).
UOp load_sources(const UOp &u, std::size_t first) {
  std::vector<UOp> src = u.src();
  bool changed = false;
  for (std::size_t k = first; k < src.size(); ++k)
    if (is_address(src[k])) {
      src[k] = UOp::make(Op::LOAD, src[k].dtype(), {src[k]});
      changed = true;
    }
  return changed ? u.with_src(std::move(src)) : UOp{};
}

// Scalars beside vectors become vectors of the same width (not Invalid, not a where's gate).
UOp broadcast_sources(const UOp &u) {
  unsigned lanes = 1;
  for (std::size_t k = 0; k < u.size(); ++k)
    if (u.op() != Op::STORE || k < 2) lanes = std::max<unsigned>(lanes, u.src(k).dtype().lanes);
  if (lanes == 1) return {};
  std::vector<UOp> src = u.src();
  bool changed = false;
  for (std::size_t k = 0; k < src.size(); ++k) {
    if (src[k].is_invalid() || src[k].dtype().lanes != 1) continue;
    if (u.op() == Op::STORE && k != 1) continue;  // the address and the gate stay
    src[k] = detail::broadcast(src[k], lanes);
    changed = true;
  }
  return changed ? u.with_src(std::move(src)) : UOp{};
}

const PatternMatcher &add_loads_rules() {
  static const PatternMatcher pm(
      "add loads",
      {
          rule("broadcast scalar operands to the vector width",
               pat_any_src(ops::kBroadcastable | OpSet{Op::STORE}).named("x"),
               [](const Match &m) { return broadcast_sources(m["x"]); }),
          rule("read of memory used as a value -> LOAD",
               pat_any_src(ops::kElementwise | OpSet{Op::STACK}).named("x"),
               [](const Match &m) { return load_sources(m["x"], 0); }),
          rule("REDUCE of a read -> REDUCE of a LOAD", pat_any_src(Op::REDUCE).named("x"),
               [](const Match &m) {
                 const UOp &x = m["x"];
                 if (x.size() == 0 || !is_address(x.src(0))) return UOp{};
                 std::vector<UOp> src = x.src();
                 src[0] = UOp::make(Op::LOAD, src[0].dtype(), {src[0]});
                 return x.with_src(std::move(src));
               }),
          rule("STORE of a read -> STORE of a LOAD", pat_any_src(Op::STORE).named("x"),
               [](const Match &m) { return load_sources(m["x"], 1); }),
          rule("index or lane select of a read -> of a LOAD",
               pat_any_src({Op::INDEX, Op::SHRINK}).named("x"),
               [](const Match &m) {
                 const UOp &x = m["x"];
                 // INDEX(buffer, i): only the index operands; INDEX(value, k): the value too
                 return load_sources(x, detail::buffer_of(x.src(0)) ? 1 : 0);
               }),
      });
  return pm;
}

}  // namespace

UOp add_loads(const UOp &sink) {
  static const PatternMatcher pm = symbolic::symbolic_simple() + add_loads_rules();
  return graph_rewrite(sink, pm, detail::pass("expand broadcast / add loads"));
}

}  // namespace wavescope::compiler::lower
