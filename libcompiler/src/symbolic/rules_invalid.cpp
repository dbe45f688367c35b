// Invalid propagation (spec §4.3.10). Unlike tinygrad, a comparison with a bare Invalid is
// Invalid too (spec §9.3: any operator with an invalid operand yields invalid); tinygrad leaves it
// to range analysis, which reads Invalid as a bool and can fold `invalid != -36` to true.
// Runs first in every layer, so that e.g. `0 * maybe-invalid`
// keeps its gate: ops move inside the gate until the Invalid reaches a LOAD/STORE and folds there.

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;

namespace {
const Pat kInvalid = invalid_pat("i");
// where(cond, x, invalid): a value that exists only where cond holds.
const Pat kGate = where(var("cond"), var("x"), kInvalid);
const OpSet kUnaryLike = ops::kUnary | OpSet{Op::CAST, Op::BITCAST};
}  // namespace

const PatternMatcher &invalid_rules() {
  static const PatternMatcher
      rules =
          detail::rule_set("invalid", {
                                          rule("stack of invalid -> invalid",
                                               pat_any_src(Op::STACK).with_repeated_src(kInvalid),
                                               [](const Match &m) { return m["i"]; }),
                                          rule("op(invalid) -> invalid",
                                               pat(kUnaryLike, {kInvalid}),
                                               [](const Match &m) { return m["i"]; }),
                                          rule("op(where(c,x,invalid)) -> where(c,op(x),invalid)",
                                               pat(kUnaryLike, {kGate}).named("op"),
                                               [](const Match &m) {
                                                 return where(m["cond"], m["op"].with_src({m["x"]}),
                                                              m["i"]);
                                               }),
                                          rule("where(c,x,invalid) op y -> where(c,x op y,invalid)",
                                               pat(ops::kBinary, {kGate, var("y")}).named("alu"),
                                               [](const Match &m) {
                                                 return where(m["cond"],
                                                              alu(m["alu"].op(), {m["x"], m["y"]}),
                                                              m["i"]);
                                               }),
                                          rule("y op where(c,x,invalid) -> where(c,y op x,invalid)",
                                               pat(ops::kBinary, {var("y"), kGate}).named("alu"),
                                               [](const Match &m) {
                                                 return where(m["cond"],
                                                              alu(m["alu"].op(), {m["y"], m["x"]}),
                                                              m["i"]);
                                               }),
                                          rule(
                                              "invalid op y -> invalid",
                                              pat_any_src(ops::kBinary).with_permuted_src({kInvalid, var()}),
                                              [](const Match &m) { return m["i"]; }),
                                          rule("where(invalid,a,b) -> invalid", where(kInvalid, var(), var()),
                                               [](const Match &m) { return m["i"]; }),
                                          rule("where(where(c,x,invalid),a,b) -> "
                                               "where(c,where(x,a,b),invalid)",
                                               where(kGate, var("a"), var("b")),
                                               [](const Match &m) {
                                                 return where(m["cond"],
                                                              where(m["x"], m["a"], m["b"]),
                                                              m["i"]);
                                               }),
                                          rule("where(c,invalid,v) -> where(!c,v,invalid)",
                                               where(var("cond"), kInvalid, var("val")),
                                               [](const Match &m) {
                                                 if (m["val"].is_invalid()) return m["i"];
                                                 return where(logical_not(m["cond"]), m["val"],
                                                              m["i"]);
                                               }),
                                          rule("where(a,where(c,x,invalid),e) -> "
                                               "where(!a|c,where(a,x,e),invalid)",
                                               where(var("a"), kGate, var("e")),
                                               [](const Match &m) -> UOp {
                                                 if (m["e"].is_invalid()) return {};
                                                 // `!a | c` would evaluate c where a is false as
                                                 // well; when c can be undefined (a division by a
                                                 // possible zero) the lazy form where(a, c, true)
                                                 // keeps it guarded, so the gate still reaches the
                                                 // top.
                                                 const UOp gate =
                                                     detail::may_be_undefined(m["cond"])
                                                         ? where(m["a"], m["cond"],
                                                                 const_bool(true))
                                                         : bit_or(logical_not(m["a"]), m["cond"]);
                                                 return where(gate, where(m["a"], m["x"], m["e"]),
                                                              m["i"]);
                                               }),
                                          rule("where(a,b,where(c,x,invalid)) -> "
                                               "where(a|c,where(a,b,x),invalid)",
                                               where(var("a"), var("b"), kGate),
                                               [](const Match &m) -> UOp {
                                                 if (m["b"].is_invalid()) return {};
                                                 const UOp gate =
                                                     detail::may_be_undefined(m["cond"])
                                                         ? where(m["a"], const_bool(true),
                                                                 m["cond"])
                                                         : bit_or(m["a"], m["cond"]);
                                                 return where(gate, where(m["a"], m["b"], m["x"]),
                                                              m["i"]);
                                               }),
                                          rule("store through an invalid index -> nothing",
                                               pat(Op::STORE,
                                                   {or_casted(
                                                        pat(Op::INDEX, {var(), kInvalid}, true)),
                                                    var()}),
                                               [](const Match &) {
                                                 return UOp::make(Op::NOOP, dtypes::void_);
                                               }),
                                          rule("load through an invalid index -> its alternative",
                                               pat(Op::LOAD,
                                                   {or_casted(
                                                       pat(Op::INDEX, {var(), kInvalid}, true))},
                                                   true)
                                                   .named("x"),
                                               [](const Match &m) {
                                                 const UOp &x = m["x"];
                                                 return x.size() > 1 ? x.src(1)
                                                                     : detail::constant_like(x, 0);
                                               }),
                                      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
