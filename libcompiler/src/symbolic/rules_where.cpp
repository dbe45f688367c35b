// Where folding (spec §4.3.8): negated conditions, closure (inside where(c, t, f), c is true in t
// and false in f), and combining wheres over the same condition.

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;

namespace {

const DTypeList kBool{dtypes::bool_};

UOp fold_where_closure(const UOp &cond, const UOp &t, const UOp &f) {
  if (!in_graph(t, cond) && !in_graph(f, cond)) return {};
  // INDEX gates are owned by the load/store machinery.
  for (const UOp *u : {&cond, &t, &f})
    if (graph_has_op(*u, Op::INDEX)) return {};
  return where(cond, substitute(t, {{cond, const_bool(true)}}),
               substitute(f, {{cond, const_bool(false)}}));
}

bool both_const(const UOp &a, const UOp &b) { return a.is_const() && b.is_const(); }

}  // namespace

const PatternMatcher &where_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "where",
      {
          rule("where(!c,t,f) -> where(c,f,t)",
               where(logical_not(var("cond", kBool)), var("t"), var("f")),
               [](const Match &m) -> UOp {
                 if (m["f"].is_invalid()) return {};
                 return where(m["cond"], m["f"], m["t"]);
               }),
          rule("where closure: c is true in t, false in f",
               where(var("cond", kBool), var("t"), var("f")),
               [](const Match &m) { return fold_where_closure(m["cond"], m["t"], m["f"]); }),
          rule("op(where(c,t,f),where(c,tt,ff)) -> where(c,op(t,tt),op(f,ff))",
               pat(ops::kBinary,
                   {where(var("c"), var("t"), var("f")), where(var("c"), var("tt"), var("ff"))})
                   .named("alu"),
               [](const Match &m) -> UOp {
                 if (!both_const(m["t"], m["tt"]) && !both_const(m["f"], m["ff"])) return {};
                 const Op op = m["alu"].op();
                 return where(m["c"], alu(op, {m["t"], m["tt"]}), alu(op, {m["f"], m["ff"]}));
               }),
          rule("(y+where(c,t,f))+where(c,tt,ff) -> y+where(c,t+tt,f+ff)",
               (var("y") + where(var("c"), var("t"), var("f"))) +
                   where(var("c"), var("tt"), var("ff")),
               [](const Match &m) -> UOp {
                 if (!both_const(m["t"], m["tt"]) && !both_const(m["f"], m["ff"])) return {};
                 return m["y"] + where(m["c"], m["t"] + m["tt"], m["f"] + m["ff"]);
               }),
          rule("where(c,t,0)+where(c,0,f) -> where(c,t,f)",
               where(var("c"), var("t"), constant(0)) + where(var("c"), constant(0), var("f")),
               [](const Match &m) { return where(m["c"], m["t"], m["f"]); }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
