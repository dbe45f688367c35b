// add gpudims: GLOBAL/LOCAL ranges become gidx/lidx ids; more than three dims, or dims beyond the
// target's limits, are merged or split, and the index math recovers every element exactly once.

#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/target.hpp"
#include "wavescope/compiler/render/lowering.hpp"
#include "wavescope/compiler/symbolic/evaluate.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;

namespace {

// out[flat(i...)] = in[flat(reversed i...)] (a transpose: merging two loops would add a div/mod,
// so they stay apart) over loops of `shape`, not optimized.
UOp transpose_kernel(const std::vector<std::int64_t> &shape) {
  kernel::KernelBuilder k("transpose");
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  auto out = k.buffer(dtypes::float32, n), in = k.buffer(dtypes::float32, n);
  std::vector<UOp> loops;
  UOp flat, reversed;
  for (auto s : shape) {
    loops.push_back(k.range(s));
    flat = flat ? flat * const_int(s) + loops.back() : loops.back();
  }
  for (std::size_t i = shape.size(); i-- > 0;)
    reversed = reversed ? reversed * const_int(shape[i]) + loops[i] : loops[i];
  k.store(out, flat, k.read(in, reversed), loops);
  return with_opt_choice(k.finish(), OptChoice::none());
}

// Every launch id combination's store index, which must cover 0..n-1 once each.
std::size_t check_covers(const UOp &lowered, const lower::Launch &launch, std::int64_t n) {
  UOp index;
  for (const auto &u : toposort(lowered))
    if (u.op() == Op::STORE) index = u.src(0).src(1);
  REQUIRE(index);
  const symbolic::Evaluator eval(index);
  std::set<std::int64_t> seen;
  std::size_t points = 0;
  for (std::int64_t z = 0; z < launch.workgroups[2]; ++z)
    for (std::int64_t y = 0; y < launch.workgroups[1]; ++y)
      for (std::int64_t x = 0; x < launch.workgroups[0]; ++x) {
        std::unordered_map<std::string, Int> env{{"gidx0", x}, {"gidx1", y}, {"gidx2", z}};
        std::vector<Int> values;
        for (const auto &name : eval.inputs()) values.push_back(env.at(name));
        const auto v = eval(values);
        REQUIRE(v.kind == symbolic::Value::Kind::Int);
        seen.insert(static_cast<std::int64_t>(v.v));
        ++points;
      }
  CHECK(seen.size() == static_cast<std::size_t>(n));
  CHECK(*seen.begin() == 0);
  CHECK(*seen.rbegin() == n - 1);
  return points;
}

}  // namespace

TEST_CASE("gpudims: four GLOBAL dims merge into three, the last one is x",
          "[compiler][opt][amdgpu]") {
  const auto k = render::lower_kernel(transpose_kernel({3, 5, 7, 11}), opt::target("gfx1100"));
  const UOp &lowered = k.sink;
  const auto &launch = k.launch;
  // Reversed (11, 7, 5, 3): the two first fit in x together.
  CHECK(launch.workgroups == std::array<std::int64_t, 3>{77, 5, 3});
  CHECK(launch.local_items() == 1);
  CHECK(check_covers(lowered, launch, 3 * 5 * 7 * 11) == 1155);
}

TEST_CASE("gpudims: a dim beyond the target's limit is split across dims",
          "[compiler][opt][amdgpu]") {
  Target small = opt::target("gfx1100");
  small.global_max = {4, 4, 4};
  const auto k = render::lower_kernel(transpose_kernel({16}), small);
  const UOp &lowered = k.sink;
  const auto &launch = k.launch;
  CHECK(launch.workgroups == std::array<std::int64_t, 3>{4, 4, 1});
  CHECK(check_covers(lowered, launch, 16) == 16);
  // 32 cannot be spread over three dims of at most 2: a clear error (tinygrad does not check).
  small.global_max = {2, 2, 2};
  CHECK_THROWS_WITH(render::lower_kernel(transpose_kernel({32}), small),
                    Catch::Matchers::Contains("32 launch items do not fit the target's limits "
                                              "2x2x2"));
}

TEST_CASE("gpudims: a group reduce's store waits for local id 0 and its LOCAL buffer",
          "[compiler][opt][amdgpu]") {
  kernel::KernelBuilder b("sum");
  auto out = b.buffer(dtypes::float32, 4), in = b.buffer(dtypes::float32, 4 * 64);
  auto r = b.range(64, AxisType::Reduce), i = b.range(4);
  b.store(out, i, b.reduce(Op::ADD, b.read(in, i * const_int(64) + r), {r}), {i});
  const auto k = render::lower_kernel(b.finish(), opt::target("gfx1100"));
  const UOp &lowered = k.sink;
  const auto &launch = k.launch;
  // The heuristic: a small output, GROUPTOP 16.
  CHECK(launch.local == std::array<std::int64_t, 3>{16, 1, 1});
  CHECK(launch.workgroups == std::array<std::int64_t, 3>{4, 1, 1});
  std::size_t barriers = 0, locals = 0, gated = 0;
  for (const auto &u : toposort(lowered)) {
    barriers += u.op() == Op::BARRIER;
    if (u.op() == Op::BUFFER && std::get<ParamArg>(u.arg()).addrspace == AddrSpace::Local) {
      ++locals;
      CHECK(u.src(0).const_value() == Int(16));
    }
    if (u.op() == Op::STORE && u.src(0).src(0).op() == Op::PARAM) {
      // Gated on lidx0 == 0 (the back half moved the gate from the index onto the STORE).
      REQUIRE(u.size() == 3);
      gated += graph_has_op(u.src(2), Op::SPECIAL);
    }
  }
  CHECK(barriers == 1);
  CHECK(locals == 1);
  CHECK(gated == 1);
}
