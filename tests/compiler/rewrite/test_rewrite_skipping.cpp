// What the rewrite engine does not visit: subgraphs without an op any rule is filed under, and
// (RewriteOptions::memoize) graphs a matcher was found to leave unchanged before. The results
// must be those of visiting everything; RewriteStats shows what was visited.

#include <catch2/catch.hpp>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;

namespace {
const UOp p = variable("skip_p", 0, 8);
const UOp q = variable("skip_q", 0, 8);

// Rules filed under ADD and MUL only.
const PatternMatcher &identities() {
  static const PatternMatcher pm(
      "identities", {
                        rule("x+0 -> x", var("x") + 0, [](const Match &m) { return m["x"]; }),
                        rule("x*1 -> x", var("x") * 1, [](const Match &m) { return m["x"]; }),
                    });
  return pm;
}

// A rule that never fires but counts the ADD nodes it is offered.
int offered = 0;
const PatternMatcher &watching() {
  static const PatternMatcher pm("watching",
                                 {rule("sees ADD", pat_any_src(Op::ADD), [](const Match &) -> UOp {
                                   ++offered;
                                   return {};
                                 })});
  return pm;
}
const PatternMatcher &wider() {  // watching's rules and more
  static const PatternMatcher pm = watching() + identities();
  return pm;
}

// A pair used by one test only, so that the wider one is surely used first.
int offered_late = 0;
const PatternMatcher &late_subset() {
  static const PatternMatcher pm("late subset",
                                 {rule("sees MUL", pat_any_src(Op::MUL), [](const Match &) -> UOp {
                                   ++offered_late;
                                   return {};
                                 })});
  return pm;
}
const PatternMatcher &early_superset() {
  static const PatternMatcher pm = late_subset() + identities();
  return pm;
}

RewriteOptions with_stats(RewriteStats &stats, bool memoize = false) {
  RewriteOptions o;
  o.stats = &stats;
  o.memoize = memoize;
  return o;
}
}  // namespace

TEST_CASE("a node's subtree ops are its op and those of every node below it") {
  const UOp m = maximum(p, q);
  CHECK(m.subtree_ops() == (OpSet(Op::MAX) | OpSet(Op::PARAM)));
  const UOp s = (m + 1) * p;
  CHECK(s.subtree_ops() ==
        (OpSet(Op::MUL) | OpSet(Op::ADD) | OpSet(Op::MAX) | OpSet(Op::PARAM) | OpSet(Op::CONST)));
  CHECK(graph_has_op(s, Op::MAX));
  CHECK_FALSE(graph_has_op(s, Op::FLOORDIV));
  // in_graph finds deep nodes, and only nodes that are there.
  CHECK(in_graph(s, p));
  CHECK(in_graph(s, m));
  CHECK(in_graph(s, s));
  CHECK_FALSE(in_graph(s, maximum(q, p)));  // same ops, not in the graph
  CHECK_FALSE(in_graph(s, floordiv(p, 2)));
  CHECK_FALSE(in_graph(m, s));
}

TEST_CASE("subgraphs without an op a rule is filed under are not visited") {
  const UOp m = maximum(maximum(p, q), q);  // MAX and PARAM: no rule of identities() for them
  const UOp root = UOp::make(Op::SINK, dtypes::void_, {p + 0, m});
  const UOp expected = UOp::make(Op::SINK, dtypes::void_, {p, m});

  RewriteStats stats;
  CHECK(graph_rewrite(root, identities(), with_stats(stats)) == expected);
  // Visited: the SINK and p+0. Taken as they are: p, 0, the MAX chain and the rebuilt
  // SINK(p, m), which has no ADD or MUL left (visiting everything would offer all 8 nodes).
  CHECK(stats.visited == 2);
  CHECK(stats.settled == 4);
  CHECK(stats.fired == 1);

  RewriteOptions walk = with_stats(stats);
  walk.walk = true;
  CHECK(graph_rewrite(root, identities(), walk) == expected);
  CHECK(stats.visited == 2);  // the SINK and p+0; p, 0 and the MAX chain taken as they are
  CHECK(stats.settled == 3);
  CHECK(stats.fired == 1);

  // A graph with nothing for the matcher is returned untouched at once.
  CHECK(graph_rewrite(m, identities(), with_stats(stats)) == m);
  CHECK(stats.visited == 0);
  CHECK(stats.settled == 1);
}

TEST_CASE("a memoizing rewrite does not visit a graph it found unchanged before") {
  forget_fixed_points();
  offered = 0;
  const UOp g = (p + q) * ((p + q) + 3);  // two ADD nodes
  RewriteStats stats;
  CHECK(graph_rewrite(g, watching(), with_stats(stats, true)) == g);
  CHECK(offered == 2);
  CHECK(stats.visited == 3);  // the MUL and the two ADDs

  CHECK(graph_rewrite(g, watching(), with_stats(stats, true)) == g);
  CHECK(offered == 2);  // not offered again
  CHECK(stats.visited == 0);
  CHECK(stats.settled == 1);  // the root, as a whole

  // A subgraph of it is known too.
  CHECK(graph_rewrite((p + q) + 3, watching(), with_stats(stats, true)) == (p + q) + 3);
  CHECK(stats.visited == 0);

  // Without memoize nothing is remembered or used.
  CHECK(graph_rewrite(g, watching(), with_stats(stats)) == g);
  CHECK(offered == 4);
  CHECK(stats.visited == 3);

  // forget_fixed_points makes the next memoizing rewrite do all the work again.
  forget_fixed_points();
  CHECK(graph_rewrite(g, watching(), with_stats(stats, true)) == g);
  CHECK(offered == 6);
  CHECK(stats.visited == 3);
}

TEST_CASE("a fixed point of a matcher is one of a matcher with a subset of its rules") {
  forget_fixed_points();
  offered = 0;
  const UOp g = (p + q) * (q + 5);
  RewriteStats stats;
  // wider() has watching()'s rule and more: its fixed points are watching()'s.
  CHECK(graph_rewrite(g, wider(), with_stats(stats, true)) == g);
  CHECK(offered == 2);
  CHECK(graph_rewrite(g, watching(), with_stats(stats, true)) == g);
  CHECK(offered == 2);
  CHECK(stats.visited == 0);

  // Not the other way round: watching()'s fixed points may still have work for wider().
  forget_fixed_points();
  CHECK(graph_rewrite(g, watching(), with_stats(stats, true)) == g);
  CHECK(offered == 4);
  CHECK(graph_rewrite(g, wider(), with_stats(stats, true)) == g);
  CHECK(offered == 6);
  CHECK(stats.visited == 3);
}

TEST_CASE("a matcher first used after a wider one marked nodes uses those marks") {
  forget_fixed_points();
  offered_late = 0;
  const UOp g = (p * q) + (q * 6);
  RewriteStats stats;
  CHECK(graph_rewrite(g, early_superset(), with_stats(stats, true)) == g);
  CHECK(offered_late == 2);
  CHECK(stats.visited == 3);
  // late_subset() had not been used yet when early_superset() marked g.
  CHECK(graph_rewrite(g, late_subset(), with_stats(stats, true)) == g);
  CHECK(offered_late == 2);
  CHECK(stats.visited == 0);
}

TEST_CASE("memoized rewrites give the results of full ones") {
  forget_fixed_points();
  const UOp g = (p + 0) * ((q * 1) + p);
  const UOp expected = p * (q + p);
  RewriteStats stats;
  CHECK(graph_rewrite(g, identities(), with_stats(stats, true)) == expected);
  CHECK(stats.fired == 2);
  // The input was rewritten, so it is not a fixed point: it is rewritten again in full ...
  CHECK(graph_rewrite(g, identities(), with_stats(stats, true)) == expected);
  CHECK(stats.fired == 2);
  // ... while the result is one, and is taken as it is.
  CHECK(graph_rewrite(expected, identities(), with_stats(stats, true)) == expected);
  CHECK(stats.visited == 0);
  // A new graph over the known parts visits only the new node.
  const UOp bigger = expected + 0;
  CHECK(graph_rewrite(bigger, identities(), with_stats(stats, true)) == expected);
  CHECK(stats.visited == 1);
}

TEST_CASE("memoize is ignored where rules may see more than the node") {
  forget_fixed_points();
  offered = 0;
  const UOp g = (p + q) + 7;
  RewriteStats stats;
  RewriteOptions pre = with_stats(stats, true);
  pre.pre_order = true;
  graph_rewrite(g, watching(), pre);
  graph_rewrite(g, watching(), pre);
  CHECK(offered == 4);  // a pre-order rewrite neither records nor uses fixed points
  CHECK(stats.visited == 2);

  RewriteOptions walk = with_stats(stats, true);
  walk.walk = true;
  graph_rewrite(g, watching(), walk);
  graph_rewrite(g, watching(), walk);
  CHECK(offered == 8);
  CHECK(stats.visited == 2);
}
