#pragma once
// The symbolic simplifier (spec §4): one rewrite engine, many small named rule sets.
//
// Each rule family of spec §4.3 is its own PatternMatcher; the three layers concatenate them as
// tinygrad does:
//   symbolic_simple  Invalid propagation, identities, constant folding, casts, simple where folds
//   symbolic         + canonical operand order, term combining, comparisons, range folds,
//                    two-stage folding, the div/mod engine and its recombination
//   sym              + valid (gate) simplification, casts pushed into where, distribution
// `simplify(x)` rewrites with `sym` to a fixed point. Every rule is sound for all values inside
// the variables' declared ranges; index math is unbounded, sized ints wrap and rules respect it.

#include <source_location>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::symbolic {

using rewrite::PatternMatcher;

// Rule families.
const PatternMatcher &invalid_rules();           // §4.3.10 Invalid propagation
const PatternMatcher &identity_rules();          // §4.3.2 identities, self-folding, bool algebra
const PatternMatcher &constant_folding_rules();  // §4.3.1
const PatternMatcher &cast_rules();              // §4.3.11 casts and widths
const PatternMatcher &simple_where_rules();      // §4.3.8 where over equal/constant operands
const PatternMatcher &canonical_order_rules();   // §4.3.3 commutative operand order (index)
const PatternMatcher &term_rules();              // §4.3.3 constant motion, term combining
const PatternMatcher &where_rules();             // §4.3.8 closure, combining wheres
const PatternMatcher &range_fold_rules();        // §4.3.5 folds from vmin/vmax
const PatternMatcher &comparison_rules();        // §4.3.4
const PatternMatcher &divmod_rules();            // §4.3.6 the div/mod engine
const PatternMatcher &recombine_rules();         // §4.3.7 div/mod recombination
const PatternMatcher &valid_rules();             // §4.3.9 valid (gate) simplification
const PatternMatcher &distribution_rules();      // §4.3.3 (sym): (x+y)*c, -(x+y), cast into where
const PatternMatcher &implication_rules();       // beyond tinygrad (§4.5): implied clauses, x*c!=0

// Layers.
const PatternMatcher &symbolic_simple();
const PatternMatcher &symbolic();
const PatternMatcher &sym();

// Rewrites `root` with `rules` to a fixed point.
UOp simplify(const UOp &root, const PatternMatcher &rules = sym(),
             const std::string &name = "simplify",
             std::source_location caller = std::source_location::current());

// Drops this thread's memo of div/mod results (it keeps the nodes it holds alive; benchmarks use
// this to measure cold simplification).
void clear_caches();

// The families as listed above, for documentation and `wavectl simplify --rules`.
std::vector<const PatternMatcher *> rule_families();

}  // namespace wavescope::compiler::symbolic
