// The whole lowering (lowering.hpp) and the back half in order (passes.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "lower_util.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/linearize.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/opt/range_passes.hpp"
#include "wavescope/compiler/opt/scheduler.hpp"
#include "wavescope/compiler/opt/target.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

// Stages 4-12 (opt/front_half.hpp) without its "scalarize": the back half devectorizes.
UOp front_half(const UOp &ast, const opt::Target &front) {
  kernel::validate_kernel(ast);
  UOp g = opt::apply_opts(opt::prepare_ranges(ast), front);
  g = opt::postopt_symbolic(g);
  g = opt::expander(g);
  g = opt::remove_reduces(g);
  g = opt::add_local_buffers(g);
  Launch dims;
  return opt::add_gpudims(g, front, dims);
}

}  // namespace

UOp lower_back_half(const UOp &sink, const RenderTarget &target, bool float_emulation) {
  UOp g = add_loads(sink);
  g = devectorize(g);
  g = memory_coalescing(g, target);
  g = rewrite::graph_rewrite(g, symbolic::sym(), detail::symbolic_pass("extra symbolic"));
  g = lower_index_dtypes(g);
  g = rewrite::graph_rewrite(g, symbolic::symbolic(), detail::symbolic_pass("final symbolic"));
  g = cast_float_alu_operands(g);
  g = early_decompositions(g, target);
  g = late_decompositions(g, target);
  g = move_gates_from_index(g);
  g = final_rewrite(g, target, float_emulation);
  g = add_implicit_barriers(g);
  g = add_control_flow(g);
  return number_params(g);
}

UOp lower_to_sink(const UOp &ast, const RenderTarget &target, const opt::Target &front) {
  return lower_back_half(front_half(ast, front), target, needs_float_emulation(ast));
}

UOp lower_to_sink(const UOp &ast, const RenderTarget &target) {
  return lower_to_sink(ast, target, opt::target(target.name));
}

namespace {

// The workgroup counts and sizes named by the SPECIALs among `nodes`.
Launch launch_from(const std::vector<UOp> &nodes) {
  Launch l;
  for (const UOp &u : nodes) {
    if (u.op() != Op::SPECIAL) continue;
    auto name = std::get_if<std::string>(&u.arg());
    if (!name || name->size() < 5 || u.size() == 0) continue;
    const int dim = (*name)[name->size() - 1] - '0';
    auto extent = u.src(0).const_value();
    if (dim < 0 || dim > 2 || !extent || !fits_int64(*extent))
      throw Error(ErrorKind::BadInput,
                  fmt::format("lowering: SPECIAL {} needs a constant extent", *name));
    const auto n = static_cast<std::int64_t>(*extent);
    if (name->compare(0, 4, "gidx") == 0) l.workgroups[dim] = n;
    if (name->compare(0, 4, "lidx") == 0) l.local[dim] = n;
  }
  return l;
}

}  // namespace

Launch launch_of(const UOp &lowered) { return launch_from(toposort(lowered)); }

LoweredKernel lower(const UOp &ast, const RenderTarget &target) {
  return lower(ast, target, opt::target(target.name));
}

LoweredKernel lower(const UOp &ast, const RenderTarget &target, const opt::Target &front) {
  LoweredKernel k;
  k.buffers = kernel::kernel_params(ast);
  k.sink = lower_to_sink(ast, target, front);
  k.name = kernel::kernel_name(k.sink);  // the optimizer names the kernel by its axes
  k.program = linearize(k.sink);
  k.launch = launch_from(k.program);  // every SPECIAL of the sink is in the program
  for (const UOp &u : k.program) {
    auto p = std::get_if<ParamArg>(&u.arg());
    if (!p) continue;
    if (u.op() == Op::PARAM && p->addrspace == AddrSpace::Alu) {
      ScalarParam s{p->slot, u.dtype(), p->name.empty() ? fmt::format("var{}", p->slot) : p->name};
      if (p->bounds) {
        s.min = p->bounds->first;
        s.max = p->bounds->second;
      }
      k.scalars.push_back(std::move(s));
    }
    if (u.op() == Op::BUFFER && p->addrspace == AddrSpace::Local && u.size() > 0)
      if (auto n = u.src(0).const_value()) {
        const std::size_t bytes =
            static_cast<std::size_t>(static_cast<std::int64_t>(*n)) * byte_size(u.dtype().base());
        k.local_bytes += (bytes + 15) / 16 * 16;
      }
  }
  std::sort(k.scalars.begin(), k.scalars.end(),
            [](const ScalarParam &a, const ScalarParam &b) { return a.slot < b.slot; });
  return k;
}

}  // namespace wavescope::compiler::lower
