#pragma once
// How the simplifier's families are built: named rule sets whose results keep the wrap-around
// of sized-int nodes (see PatternMatcher's keep_wrapping).

#include <string>
#include <vector>

#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

namespace wavescope::compiler::symbolic::detail {

inline rewrite::PatternMatcher rule_set(std::string name, std::vector<rewrite::Rule> rules) {
  return rewrite::PatternMatcher(std::move(name), std::move(rules), /*keep_wrapping=*/true);
}

}  // namespace wavescope::compiler::symbolic::detail
