// The front half of the lowering, stage by stage (front_half.hpp).

#include "wavescope/compiler/opt/front_half.hpp"

#include "wavescope/compiler/opt/range_passes.hpp"
#include "wavescope/compiler/opt/scheduler.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::opt {

UOp prepare_ranges(const UOp &sink) {
  UOp g = split_ranges(sink);
  rewrite::RewriteOptions o;
  o.name = "initial symbolic";
  o.memoize = true;  // static rules, no context
  static const rewrite::PatternMatcher pm = symbolic::sym() + flatten_range_rules();
  g = rewrite::graph_rewrite(g, pm, o);
  return simplify_ranges(g);
}

UOp lower_front_half(const UOp &sink, const Target &target, lower::Launch &launch) {
  UOp g = apply_opts(prepare_ranges(sink), target);
  g = postopt_symbolic(g);
  g = expander(g);
  g = remove_reduces(g);
  g = add_local_buffers(g);
  g = add_gpudims(g, target, launch);
  return scalarize(g);
}

}  // namespace wavescope::compiler::opt
