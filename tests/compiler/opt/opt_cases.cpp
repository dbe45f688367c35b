#include "opt_cases.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "testdata.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/opt/scheduler.hpp"

namespace opt_cases {

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;

std::vector<Case> all_kernels(bool *corpus_found) {
  std::vector<Case> out;
  for (const auto &name : kernel::builtin_example_names())
    for (const auto &k : kernel::builtin_example(name))
      out.push_back({name + "/" + kernel::kernel_name(k), k});
  const auto root = wavescope::testing::testdata_root() / "tinygrad-viz";
  const bool found = std::filesystem::exists(root / "softmax" / "rewrites.pkl");
  if (corpus_found) *corpus_found = found;
  if (found)
    for (const char *w : {"elementwise", "matmul_relu_sum", "softmax"}) {
      const auto ks = kernel::tinygrad_kernels(root / w / "rewrites.pkl");
      for (std::size_t i = 0; i < ks.size(); ++i)
        out.push_back({fmt::format("{}/{} {}", w, i, kernel::kernel_name(ks[i])), ks[i]});
    }
  return out;
}

namespace {

// The index (into the sorted axes) of the last axis of one of `types` whose extent `amount`
// divides, or -1.
std::int64_t axis_where(const Scheduler &s, std::initializer_list<AxisType> types,
                        std::int64_t amount, bool last) {
  const auto shape = s.full_shape();
  std::int64_t found = -1;
  for (auto i : s.axes_of(types))
    if (shape[i] > amount && shape[i] % amount == 0) {
      found = static_cast<std::int64_t>(i);
      if (!last) break;
    }
  return found;
}

// Applies `o` to the scheduler and appends it to the list (opts are chosen on the current axes).
void add(Scheduler &s, std::vector<Opt> &list, const Opt &o) {
  s.apply_opt(o);
  list.push_back(o);
}

}  // namespace

std::vector<std::vector<Opt>> explicit_lists(const UOp &kernel, const Target &t) {
  const UOp prepared = prepare_ranges(kernel);
  const std::initializer_list<AxisType> outputs{AxisType::Global, AxisType::Weak, AxisType::Loop};
  std::vector<std::vector<Opt>> lists;
  {  // classic names
    Scheduler s(prepared, t);
    s.convert_loop_to_global();
    std::vector<Opt> list;
    if (auto a = axis_where(s, outputs, 2, false); a >= 0) add(s, list, {OptOp::Upcast, a, 2});
    const auto u = s.unrollable_dims();
    if (!u.empty()) {
      const auto n = s.full_shape()[u.back()];
      const std::int64_t amount = n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : n <= 8 ? 0 : -1;
      if (amount >= 0)
        add(s, list, {OptOp::Unroll, static_cast<std::int64_t>(u.size()) - 1, amount});
    }
    if (!list.empty()) lists.push_back(list);
  }
  {  // the SPLIT form: a top split of an output axis, a whole small reduce axis
    Scheduler s(prepared, t);
    s.convert_loop_to_global();
    std::vector<Opt> list;
    if (auto a = axis_where(s, outputs, 2, true); a >= 0)
      add(s, list, {OptOp::Split, a, 2, AxisType::Upcast, true});
    if (auto r = axis_where(s, {AxisType::Reduce}, 3, true); r >= 0)
      add(s, list, {OptOp::Split, r, 3, AxisType::Unroll, false});
    else if (auto r2 = axis_where(s, {AxisType::Reduce}, 2, true); r2 >= 0)
      add(s, list, {OptOp::Split, r2, 2, AxisType::Unroll, false});
    if (!list.empty()) lists.push_back(list);
  }
  if (t.has_local) {  // work-groups: LOCAL and a GROUPTOP reduce
    Scheduler s(prepared, t);
    s.convert_loop_to_global();
    std::vector<Opt> list;
    if (auto a = axis_where(s, outputs, 4, false); a >= 0) add(s, list, {OptOp::Local, a, 4});
    const auto reduces = s.axes_of({AxisType::Reduce});
    for (std::size_t i = 0; i < reduces.size(); ++i) {
      if (s.full_shape()[reduces[i]] % 4 != 0) continue;
      try {  // a reduce inside another reduce cannot be grouped
        add(s, list, {OptOp::GroupTop, static_cast<std::int64_t>(i), 4});
        break;
      } catch (const InvalidOpt &) {
      }
    }
    if (!list.empty()) lists.push_back(list);
  }
  return lists;
}

}  // namespace opt_cases
