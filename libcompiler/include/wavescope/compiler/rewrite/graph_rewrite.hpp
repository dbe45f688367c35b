#pragma once
// graph_rewrite (spec §3.1): rewrites a graph with a PatternMatcher until no rule matches any
// node reachable from the root.
//
// The matcher runs post-order by default (tinygrad's default "top-down" mode): a node is offered
// only after its children were fully rewritten and the node rebuilt with them. With `pre_order`
// it runs before the children are visited (tinygrad's bottom_up=True). `extra_pre_order` adds a
// second matcher that runs pre-order beside a post-order one (tinygrad's bpm). Every rewritten
// or rebuilt node is processed again from the start, so the result is a fixed point; shared
// subgraphs are rewritten once. Rules that undo each other are reported as a wavescope::Error
// naming the rules involved, never a hang. `walk` makes one pass without a fixed point.
//
// With a RewriteTrace active on the calling thread (rewrite_trace.hpp), every call is recorded
// with its name, caller location, depth, input, output and every step.

#include <cstddef>
#include <source_location>
#include <string>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::rewrite {

// What one rewrite did (RewriteOptions::stats), for tests and diagnostics.
struct RewriteStats {
  std::size_t visited = 0;  // nodes offered to the matchers (or rebuilt)
  std::size_t settled = 0;  // subgraphs taken as they are without a visit (see below)
  std::size_t fired = 0;    // rules that fired
};

struct RewriteOptions {
  std::string name = "graph_rewrite";  // the pass name shown in traces
  bool pre_order = false;              // run the matcher before the children, not after
  const PatternMatcher *extra_pre_order = nullptr;
  bool walk = false;                // one pass, no fixed point (replacements are not revisited)
  bool enter_calls = false;         // also rewrite the bodies (src[0]) of FUNCTION and CALL
  ContextRef context;               // handed to rules as Match::context<T>()
  std::size_t step_limit = 250000;  // work-stack size that counts as runaway rewriting
  // The matcher's rules are functions of the node alone (no context, no state captured from
  // outside) and the matcher lives until the process ends (a static): nodes then remember being
  // fixed points of it, and later rewrites with it, or with a matcher whose rules are a subset
  // of its rules, do not visit them again. Used only for a post-order fixed point without
  // context and without a pre-order matcher; otherwise ignored.
  bool memoize = false;
  RewriteStats *stats = nullptr;  // receives what the rewrite did, when given
};

// Thrown by a pre-order rule to keep the engine from descending into the node's children: the
// node (as it is) becomes final.
struct StopDescent {};

// Whatever the engine skips, the result is the same as visiting every node: a subgraph in which
// no node has an op that some rule is filed under is taken as it is, and so is one that a
// memoizing rewrite found to be a fixed point of the matcher before.

// Makes every node forget the fixed points memoized so far (RewriteOptions::memoize), so the next
// rewrites do all the work again: for benchmarks of a first lowering and for tests.
void forget_fixed_points();

UOp graph_rewrite(const UOp &root, const PatternMatcher &matcher,
                  const RewriteOptions &options = {},
                  std::source_location caller = std::source_location::current());

}  // namespace wavescope::compiler::rewrite
