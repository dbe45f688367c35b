// The simplifier's layers, assembled from the rule families in tinygrad's order (rule order
// matters among rules for the same op).

#include "wavescope/compiler/symbolic/simplify.hpp"

#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

namespace wavescope::compiler::symbolic {

const PatternMatcher &symbolic_simple() {
  static const PatternMatcher layer = invalid_rules() + identity_rules() + recombine_rules() +
                                      constant_folding_rules() + cast_rules() +
                                      simple_where_rules();
  return layer;
}

const PatternMatcher &symbolic() {
  static const PatternMatcher layer = symbolic_simple() + canonical_order_rules() + term_rules() +
                                      where_rules() + range_fold_rules() + comparison_rules() +
                                      divmod_rules();
  return layer;
}

const PatternMatcher &sym() {
  static const PatternMatcher layer =
      symbolic() + valid_rules() + distribution_rules() + implication_rules();
  return layer;
}

UOp simplify(const UOp &root, const PatternMatcher &rules, const std::string &name,
             std::source_location caller) {
  rewrite::RewriteOptions options;
  options.name = name;
  return rewrite::graph_rewrite(root, rules, options, caller);
}

std::vector<const PatternMatcher *> rule_families() {
  return {&invalid_rules(),    &identity_rules(),     &constant_folding_rules(),
          &cast_rules(),       &simple_where_rules(), &canonical_order_rules(),
          &term_rules(),       &where_rules(),        &range_fold_rules(),
          &comparison_rules(), &divmod_rules(),       &recombine_rules(),
          &valid_rules(),      &distribution_rules(), &implication_rules()};
}

}  // namespace wavescope::compiler::symbolic
