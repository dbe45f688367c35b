// Beyond tinygrad (spec §4.5): comparisons it leaves unnormalized. Clause subsumption in `&`
// chains lives with the valid rules (valid.cpp).

#include "symbolic/algebra.hpp"
#include "symbolic/rule_set.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::symbolic {

using namespace rewrite;

namespace {
const DTypeList kIndex{dtypes::index};
}  // namespace

const PatternMatcher &implication_rules() {
  static const PatternMatcher rules = detail::rule_set(
      "implications",
      {
          // bool(a*2) is a*2!=0, which is a!=0 (tinygrad keeps the multiply).
          rule("x*c!=k -> x!=k/c, or true when c does not divide k",
               ne(var("x", kIndex) * detail::icvar("c"), detail::icvar("k")),
               [](const Match &m) -> UOp {
                 const Int c = m.value("c"), k = m.value("k");
                 if (c == 0) return {};
                 if (floor_mod(k, c) != 0) return const_bool(true);
                 return ne(m["x"], const_int(floor_div(k, c)));
               }),
          rule("x+c!=k -> x!=k-c", ne(var("x", kIndex) + detail::icvar("c"), detail::icvar("k")),
               [](const Match &m) -> UOp {
                 auto d = checked_sub(m.value("k"), m.value("c"));
                 if (!d) return {};
                 return ne(m["x"], const_int(*d));
               }),
      });
  return rules;
}

}  // namespace wavescope::compiler::symbolic
