// Stage 22: move gates from index; stage 23: final rewrite (passes.hpp).

#include <algorithm>
#include <unordered_map>

#include "ir/graph_having.hpp"
#include "lower_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

// The zero of a load's dtype (a STACK of zeros for a vector).
UOp zero_of(DType t) {
  const UOp z = const_int(0, t.base());
  return t.is_vector() ? detail::broadcast(z, t.lanes) : z;
}

Pat gated_address(const char *name) {
  return pat({Op::INDEX, Op::SHRINK}, {var("buf"), where(var("gate"), var("idx"), invalid_pat())},
             true)
      .named(name);
}

UOp ungated(const Match &m) {
  std::vector<UOp> src = m["a"].src();
  src[1] = m["idx"];
  return m["a"].with_src(std::move(src));
}

const PatternMatcher &move_gates_rules() {
  static const PatternMatcher pm(
      "move gates from index",
      {
          rule("LOAD(INDEX(buf, where(g, i, invalid))) -> LOAD(INDEX(buf, i), 0, g)",
               pat(Op::LOAD, {gated_address("a")}).named("l"),
               [](const Match &m) {
                 const DType t = m["l"].dtype();
                 return UOp::make(Op::LOAD, t, {ungated(m), zero_of(t), m["gate"]});
               }),
          rule("STORE(INDEX(buf, where(g, i, invalid)), v) -> STORE(INDEX(buf, i), v, g)",
               pat(Op::STORE, {gated_address("a"), var("v")}),
               [](const Match &m) {
                 return UOp::make(Op::STORE, dtypes::void_, {ungated(m), m["v"], m["gate"]});
               }),
          rule("where(g, LOAD(.., 0, g), a) -> LOAD(.., a, g)",
               where(var("gate"), pat(Op::LOAD, {var("a"), var(), var("gate")}).named("l"),
                     var("alt")),
               [](const Match &m) -> UOp {
                 const UOp &l = m["l"];
                 if (m["alt"].dtype() != l.dtype() || !l.src(1).is_const()) return {};
                 return UOp::make(Op::LOAD, l.dtype(), {m["a"], m["alt"], m["gate"]});
               }),
      });
  return pm;
}

// END(body, r1, r2, ...) nested so that each END closes one RANGE: the largest axis innermost.
UOp split_end(const UOp &e) {
  if (e.size() <= 2) return {};
  std::vector<UOp> ranges(e.src().begin() + 1, e.src().end());
  std::stable_sort(ranges.begin(), ranges.end(), [](const UOp &a, const UOp &b) {
    auto ra = std::get_if<RangeArg>(&a.arg()), rb = std::get_if<RangeArg>(&b.arg());
    if (!ra || !rb) return false;
    return ra->axis > rb->axis;
  });
  UOp body = e.src(0);
  for (const UOp &r : ranges) body = UOp::make(Op::END, dtypes::void_, {body, r});
  return body;
}

// A RANGE closed by several ENDs (a GPU target's LOCAL range run as a loop: the local stores'
// loop and the loop that reads them back) gets a clone, with a new axis id, for every END but
// the last: each RANGE is then closed by one END, as the linearizer needs.
UOp clone_shared_ranges(const UOp &sink) {
  std::unordered_map<const UOpNode *, std::vector<UOp>> ends;
  std::int64_t next_axis = 0;
  for (const UOp &u : toposort_having(sink, {Op::RANGE, Op::END})) {
    if (auto ra = std::get_if<RangeArg>(&u.arg()); ra && u.op() == Op::RANGE)
      next_axis = std::max(next_axis, ra->axis + 1);
    if (u.op() == Op::END)
      for (std::size_t k = 1; k < u.size(); ++k)
        if (u.src(k).op() == Op::RANGE) ends[u.src(k).get()].push_back(u);
  }
  std::unordered_map<UOp, UOp> replace;
  for (auto &[range, list] : ends) {
    if (list.size() < 2) continue;
    const UOp r = list.front().src(1).get() == range
                      ? list.front().src(1)
                      : *std::find_if(list.front().src().begin(), list.front().src().end(),
                                      [&](const UOp &s) { return s.get() == range; });
    for (std::size_t i = 0; i + 1 < list.size(); ++i) {
      auto ra = std::get<RangeArg>(r.arg());
      ra.axis = next_axis++;
      const UOp clone = UOp::make(Op::RANGE, r.dtype(), r.src(), ra, r.tag());
      replace[list[i]] = substitute(list[i], {{r, clone}});
    }
  }
  if (replace.empty()) return {};
  return substitute(sink, replace);
}

const PatternMatcher &final_rules() {
  static const PatternMatcher pm(
      "final rewrite",
      {
          rule("a RANGE closed by several ENDs -> a clone per END",
               pat_any_src(Op::SINK).named("s"),
               [](const Match &m) { return clone_shared_ranges(m["s"]); }),
          rule("END of several RANGEs -> nested ENDs of one each", pat_any_src(Op::END).named("e"),
               [](const Match &m) { return split_end(m["e"]); }),
          rule("where(c, x, invalid) -> where(c, x, 0)", where(var("c"), var("x"), invalid_pat()),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"];
                 if (x.dtype().is_vector()) return {};
                 return where(m["c"], x, const_int(0, x.dtype()));
               }),
          rule("a weak constant left -> int32/float", cvar("x"),
               [](const Match &m) -> UOp {
                 const UOp &x = m["x"];
                 if (x.dtype() == dtypes::index && x.const_value())
                   return const_int(*x.const_value(), dtypes::int32);
                 if (auto f = std::get_if<FloatValue>(&x.arg());
                     f && x.dtype() == dtypes::weakfloat)
                   return const_float(f->value, dtypes::float32);
                 return {};
               }),
      });
  return pm;
}

// With the renderers' 16-bit float rules (float_emulation.cpp), as tinygrad runs a renderer's
// extra_matcher in its final rewrite; the lowering leaves them out for a kernel that needs none,
// so that its ALU and CAST nodes are not offered to rules that cannot fire.
const PatternMatcher &final_rules_with_emulation() {
  static const PatternMatcher pm = final_rules() + detail::float_emulation_rules();
  return pm;
}

}  // namespace

UOp move_gates_from_index(const UOp &sink) {
  return graph_rewrite(sink, move_gates_rules(), detail::pass("move gates from index"));
}

UOp final_rewrite(const UOp &sink, const RenderTarget &, bool float_emulation) {
  return graph_rewrite(sink, float_emulation ? final_rules_with_emulation() : final_rules(),
                       detail::pass("final rewrite"));
}

}  // namespace wavescope::compiler::lower
