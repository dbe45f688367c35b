#pragma once
// The optimizer's view of a kernel (spec §6.1, tinygrad's Scheduler): its non-void RANGEs of
// extent > 1 (DEVICE excepted), sorted by axis type position then axis id, are the kernel's
// shape; an opt's axis indexes that list. Every opt is a SPLIT (shift_to): the range r of extent
// N becomes r' of N/a and a new range n of a of the target type, r := r'*a + n (top: n*(N/a) + r'),
// substituted everywhere as a named rewrite pass ("shift (3) 4 unroll").

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/opt/opt.hpp"
#include "wavescope/compiler/opt/target.hpp"

namespace wavescope::compiler::opt {

class Scheduler {
public:
  // `ast` is a kernel SINK; opts already applied are taken from its KernelInfo.
  Scheduler(UOp ast, const Target &target);

  const UOp &ast() const { return ast_; }
  const Target &target() const { return *target_; }
  const std::vector<Opt> &applied_opts() const { return applied_; }
  bool dont_use_locals() const { return dont_use_locals_; }

  // The sorted axes, their constant extents (-1 when symbolic) and types.
  std::vector<UOp> rngs() const;
  std::vector<std::int64_t> full_shape() const;
  std::vector<AxisType> axis_types() const;
  // "L64 L64 R256": the shape with axis letters, for messages.
  std::string shape_text() const;

  // Applies one opt (appending it to applied_opts); InvalidOpt when it does not apply.
  void apply_opt(const Opt &opt, bool append = true);
  // The split itself: returns (the shrunk range, the new range).
  std::pair<UOp, UOp> shift_to(const UOp &rng, std::int64_t amount, AxisType type, bool top);
  // On targets with locals, output loops become GLOBAL axes.
  void convert_loop_to_global();

  // The kernel with ranges flattened ("flatten range" pass) and its KernelInfo: the applied opts
  // and the name. A name of the form the optimizer gives (E_/r_ and extents), "test" or none is
  // recomputed from the axes ("r_128_128_4_4_128_4"); any other name is kept.
  UOp optimized_ast() const;
  std::string axis_name() const;

  // Helpers of the heuristic (tinygrad's names).
  std::vector<std::size_t> axes_of(std::initializer_list<AxisType> types) const;
  std::vector<UOp> ranges_of(std::initializer_list<AxisType> types) const;
  std::vector<std::size_t> upcastable_dims() const;  // GLOBAL/LOCAL/loop axes of const extent > 1
  std::vector<std::size_t> unrollable_dims() const;  // GROUP_REDUCE/REDUCE of const extent > 1
  std::int64_t upcast_size() const;                  // product of UPCAST and UNROLL extents
  std::vector<std::int64_t> output_shape() const;    // reduce-like axes as 1
  std::size_t upcasted() const;                      // number of UPCAST/UNROLL axes
  std::size_t group_for_reduces() const;             // number of GROUP_REDUCE axes
  UOp reduceop() const;                              // the first REDUCE, or null
  std::vector<UOp> reduceops() const;
  std::vector<UOp> bufs() const;  // buffer INDEX nodes, last in topological order first
  std::vector<UOp> output_rngs() const;
  std::vector<UOp> globalizable_rngs() const;

  // The kernel's nodes in topological order (cached until the kernel changes).
  const std::vector<UOp> &nodes() const;

private:
  InvalidOpt invalid(const Opt &opt, const std::string &why) const;
  void check(bool cond, const Opt &opt, const std::string &why) const {
    if (!cond) throw invalid(opt, why);
  }
  UOp axis_range(const Opt &opt) const;
  void split(const Opt &opt, const UOp &rng, AxisType type, bool top);
  void padto(const Opt &opt, const UOp &rng);
  void swap(const Opt &opt, const UOp &rng);

  UOp ast_;
  const Target *target_;
  std::vector<Opt> applied_;
  bool dont_use_locals_ = false;
  std::int64_t next_axis_ = 0;
  mutable std::vector<UOp> nodes_;
  mutable std::uint64_t nodes_of_ = 0;  // the id of the kernel nodes_ belongs to
  mutable std::vector<UOp> rngs_;       // rngs() of the kernel rngs_of_ names
  mutable std::uint64_t rngs_of_ = 0;
};

// Stage 7, "apply_opts": the KernelInfo's opts to apply, or (when it has none and none were
// applied) the heuristic of heuristic.hpp; on targets with locals output loops become GLOBAL
// first. Returns the optimized kernel (optimized_ast). Explicit opts that do not apply raise
// InvalidOpt.
UOp apply_opts(const UOp &sink, const Target &target);

}  // namespace wavescope::compiler::opt
