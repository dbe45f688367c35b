// Beyond tinygrad (spec §4.5): facts tinygrad's rules leave on the table.

#include "symbolic/algebra.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;

const PatternMatcher &implication_rules() {
  static const PatternMatcher rules("implications", {});
  return rules;
}

} // namespace wavescope::compiler::symbolic
