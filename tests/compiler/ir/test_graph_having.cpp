// toposort_having (libcompiler/src/ir/graph_having.hpp): toposort restricted to the subgraphs
// that hold some ops, as the back half's plans use it.

#include <cstddef>
#include <vector>

#include <catch2/catch.hpp>

#include "ir/graph_having.hpp"
#include "testdata.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/target.hpp"

using namespace wavescope::compiler;

namespace {

// What toposort_having must give: toposort's order without the nodes lacking every op of ops.
std::vector<UOp> filtered_toposort(const UOp &root, OpSet ops) {
  std::vector<UOp> out;
  for (const UOp &u : toposort(root))
    if (u.subtree_ops().intersects(ops)) out.push_back(u);
  return out;
}

}  // namespace

TEST_CASE("toposort_having keeps toposort's order and only the subgraphs holding the ops",
          "[compiler][ir]") {
  const UOp a = variable("a", 0, 10), b = variable("b", 0, 10);
  const UOp r = range(const_int(4), 0);
  const UOp x = a * r + b;  // holds a RANGE
  const UOp y = a + b;      // holds none
  const UOp sink = UOp::make(Op::SINK, dtypes::void_, {y, x, r});
  const auto order = toposort_having(sink, Op::RANGE);
  CHECK(order == filtered_toposort(sink, Op::RANGE));
  CHECK(order == std::vector<UOp>{r, a * r, x, sink});
  // nothing holds a LOAD: no node at all, not even the root
  CHECK(toposort_having(sink, Op::LOAD).empty());
  // every node holds a PARAM or a CONST: the whole toposort
  CHECK(toposort_having(sink, {Op::PARAM, Op::CONST}) == toposort(sink));
}

TEST_CASE("toposort_having agrees with the filtered toposort on tinygrad's lowered kernels",
          "[compiler][ir][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t kernels = 0, nodes = 0;
  for (const char *w : {"elementwise", "matmul_relu_sum", "softmax"})
    for (const auto &k : kernel::tinygrad_kernels(root / w / "rewrites.pkl")) {
      INFO(w << " kernel " << kernels);
      for (const UOp &g : {k, lower::lower_to_sink(k, lower::render_target("c"))}) {
        for (OpSet ops : {OpSet(Op::LOAD), OpSet(Op::STORE), OpSet{Op::RANGE, Op::END},
                          OpSet{Op::SPECIAL, Op::RANGE, Op::STORE}}) {
          const auto got = toposort_having(g, ops);
          CHECK(got == filtered_toposort(g, ops));
          nodes += got.size();
        }
      }
      ++kernels;
    }
  CHECK(kernels == 13);
  CHECK(nodes > 1000);
}
