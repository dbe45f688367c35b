// graph_rewrite: fixed point, post- and pre-order, walk mode, shared subgraphs, the runaway guard.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;

namespace {
const UOp a = variable("a", 0, 8);
const UOp b = variable("b", 0, 8);

const PatternMatcher &identities() {
  static const PatternMatcher pm(
      "identities",
      {
          rule("x+0 -> x", var("x") + 0, [](const Match &m) { return m["x"]; }),
          rule("x*1 -> x", var("x") * 1, [](const Match &m) { return m["x"]; }),
          rule("c+c -> c", cvar("c0") + cvar("c1"),
               [](const Match &m) { return const_int(m.value("c0") + m.value("c1")); }),
      });
  return pm;
}
}  // namespace

TEST_CASE("graph_rewrite reaches a fixed point through rebuilt parents") {
  // (a+0)*1: the inner rewrite rebuilds the MUL, which is then rewritten in turn.
  CHECK(graph_rewrite((a + 0) * 1, identities()) == a);
  // Rewrites that create new matches are followed: ((a+0)+(1+2)) -> a+3, then no rule.
  CHECK(graph_rewrite((a + 0) + (const_int(1) + const_int(2)), identities()) == a + 3);
  const UOp nothing = a * b + 3;
  CHECK(graph_rewrite(nothing, identities()) == nothing);
}

TEST_CASE("shared subgraphs are rewritten once") {
  int calls = 0;
  PatternMatcher counting("count", {rule("x+0 -> x", var("x") + 0, [&](const Match &m) {
                            ++calls;
                            return m["x"];
                          })});
  const UOp shared = a + 0;
  const UOp root = shared * shared + shared;
  CHECK(graph_rewrite(root, counting) == a * a + a);
  CHECK(calls == 1);
}

TEST_CASE("post-order sees rewritten children, pre-order sees the original node first") {
  // A rule that only matches an unsimplified child: post-order has already removed it.
  std::vector<std::string> order;
  PatternMatcher trace_mul(
      "mul", {rule("mul seen", pat_any_src(Op::MUL).named("m"), [&](const Match &m) -> UOp {
        order.push_back(m["m"].src(0) == a ? "child done" : "child raw");
        return {};
      })});
  PatternMatcher both = identities() + trace_mul;
  graph_rewrite((a + 0) * 2, both);
  CHECK(order.front() == "child done");
  order.clear();
  RewriteOptions pre;
  pre.pre_order = true;
  graph_rewrite((a + 0) * 2, both, pre);
  CHECK(order.front() == "child raw");
}

TEST_CASE("walk mode makes one pass and does not revisit replacements") {
  RewriteOptions walk;
  walk.walk = true;
  // ((a+0)+0): the inner ADD becomes a, the outer is rebuilt to a+0 and rewritten once to a.
  CHECK(graph_rewrite((a + 0) + 0, identities(), walk) == a);
  // A replacement that itself matches is left as is: 1+2 -> 3 happens, the new 3+0 is not seen.
  PatternMatcher make_zero_sum(
      "m", {rule("x*1 -> x+0", var("x") * 1, [](const Match &m) { return m["x"] + 0; })});
  CHECK(graph_rewrite(a * 1, make_zero_sum + identities(), walk) == a + 0);
  CHECK(graph_rewrite(a * 1, make_zero_sum + identities()) == a);
}

TEST_CASE("rules that undo each other are reported as an error, not a hang") {
  PatternMatcher flip("flip", {
                                  rule("a+b -> b+a", var("x") + var("y"),
                                       [](const Match &m) {
                                         return alu(Op::ADD, {m["y"], m["x"]});
                                       }),
                              });
  try {
    graph_rewrite(a + b, flip);
    FAIL("no error");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(e.what(),
               Catch::Contains("does not reach a fixed point") && Catch::Contains("a+b -> b+a"));
  }
  // A pre-order rule that revisits a node is caught the same way.
  RewriteOptions pre;
  pre.pre_order = true;
  CHECK_THROWS_AS(graph_rewrite(a + b, flip, pre), wavescope::Error);
}

TEST_CASE("a pre-order rule can stop the descent into a node's children") {
  PatternMatcher gate("gate", {rule("stop at MUL", pat_any_src(Op::MUL),
                                    [](const Match &) -> UOp { throw StopDescent{}; })});
  RewriteOptions options;
  options.extra_pre_order = &gate;
  const UOp root = (a + 0) * 2 + (b + 0);
  CHECK(graph_rewrite(root, identities(), options) == (a + 0) * 2 + b);
}

TEST_CASE("call bodies are not entered unless asked") {
  const UOp body = UOp::make(Op::SINK, dtypes::void_, {a + 0});
  const UOp call = UOp::make(Op::CALL, dtypes::void_, {body, b + 0});
  const UOp out = graph_rewrite(call, identities());
  CHECK(out.src(0) == body);
  CHECK(out.src(1) == b);
  RewriteOptions enter;
  enter.enter_calls = true;
  CHECK(graph_rewrite(call, identities(), enter).src(0) == UOp::make(Op::SINK, dtypes::void_, {a}));
}
