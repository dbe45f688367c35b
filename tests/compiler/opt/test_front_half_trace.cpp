// Each pass of the front half appears by name in the rewrite trace, every step with its rule
// ("family: name") and the source location where the rule is written.

#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/target.hpp"
#include "wavescope/compiler/render/lowering.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;

namespace {

// out[i] = in[(i % 4) * 16 + i // 4] over i < 64: a range used modulo 4 (split ranges), then
// out2[r*8 + c] = in2[r*8 + c] over r, c < 8: two adjacent ranges that merge (simplify ranges).
UOp split_and_merge_kernel() {
  kernel::KernelBuilder k("split_merge");
  auto out = k.buffer(dtypes::float32, 64), in = k.buffer(dtypes::float32, 64);
  auto out2 = k.buffer(dtypes::float32, 64), in2 = k.buffer(dtypes::float32, 64);
  auto i = k.range(64);
  k.store(out, i, k.read(in, floormod(i, 4) * const_int(16) + floordiv(i, 4)), {i});
  auto r = k.range(8), c = k.range(8);
  k.store(out2, r * const_int(8) + c, k.read(in2, r * const_int(8) + c), {r, c});
  return k.finish();
}

std::map<std::string, const rewrite::TraceRewrite *> passes(const rewrite::RewriteTrace &trace) {
  // Per name, the rewrite with the most steps (the two kernels exercise different passes).
  std::map<std::string, const rewrite::TraceRewrite *> out;
  for (const auto &g : trace.groups())
    for (const auto &r : g.rewrites) {
      auto &slot = out[r.name.rfind("check_merge_", 0) == 0 ? "check_merge" : r.name];
      if (!slot || slot->steps.size() < r.steps.size()) slot = &r;
    }
  return out;
}

}  // namespace

TEST_CASE("front half: every pass is in the trace with its rules and their source locations",
          "[compiler][opt][trace]") {
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    {
      rewrite::TraceGroup group("split_merge");
      render::lower_kernel(split_and_merge_kernel(), opt::target("c"));
    }
    {
      // matmul on gfx1100 with locals, a GROUPTOP reduce, an upcast and an unroll.
      rewrite::TraceGroup group("matmul");
      const UOp k = with_opt_choice(
          kernel::builtin_example("matmul")[0],
          OptChoice::list(parse_opt_list("LOCAL:0:4,GROUPTOP:0:4,UPCAST:1:4,UNROLL:1:2")));
      CHECK(render::lower_kernel(k, opt::target("gfx1100")).launch.local_items() == 16);
    }
  }
  const auto by_name = passes(trace);
  // The pass, the rule family its steps come from and the file where those rules are written.
  const std::vector<std::tuple<std::string, std::string, std::string>> expected{
      {"split ranges", "split ranges", "range_passes.cpp:"},
      {"initial symbolic", "", ""},
      {"simplify ranges", "", ""},
      {"check_merge", "", ""},  // nested in simplify ranges: merging the two 8-loops
      {"shift (0) 4 local", "substitute", "graph_util.cpp:"},
      {"shift (2) 4 group_reduce", "substitute", "graph_util.cpp:"},
      {"flatten range", "flatten range", "range_passes.cpp:"},
      {"postopt symbolic", "", ""},
      {"expander", "expander", "expander.cpp:"},
      {"expander: drop tags", "expander: drop tags", "expander.cpp:"},
      {"remove reduces", "remove reduces", "remove_reduces.cpp:"},
      {"add local buffers", "add local buffers", "remove_reduces.cpp:"},
      {"add gpudims", "add gpudims", "gpudims.cpp:"},
      {"expand broadcast / add loads", "add loads", "add_loads.cpp:"},
      {"devectorize", "devectorize", "devectorize.cpp:"},
      {"early decompositions", "", ""},
      {"add control flow", "add control flow", "control_flow.cpp:"}};
  for (const auto &[name, family, file] : expected) {
    INFO(name);
    auto it = by_name.find(name);
    REQUIRE(it != by_name.end());
    const auto &r = *it->second;
    CHECK(r.loc.find(".cpp:") != std::string::npos);
    CHECK(r.output.has_value());
    if (family.empty()) continue;
    std::size_t mine = 0;
    for (const auto &s : r.steps) {
      CHECK_FALSE(s.rule.empty());
      CHECK(s.rule_loc.find(".cpp:") != std::string::npos);
      if (s.rule.rfind(family + ": ", 0) == 0) {
        CHECK(s.rule_loc.rfind(file, 0) == 0);
        ++mine;
      }
    }
    CHECK(mine >= 1);
  }
  // Every pass of the lowering replays to its output.
  std::size_t replayed = 0;
  for (const auto &g : trace.groups())
    for (const auto &rw : g.rewrites) {
      const auto graphs = trace.replay(rw);
      REQUIRE(graphs.size() == rw.steps.size() + 1);
      if (rw.output) CHECK(graphs.back() == trace.rebuild(*rw.output));
      ++replayed;
    }
  CHECK(replayed > 20);
}
