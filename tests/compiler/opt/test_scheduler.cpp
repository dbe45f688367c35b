// The optimizer's view of a kernel, the SPLIT action and its constructors, their checks, the
// heuristic's choices and the names it gives: tinygrad's own on tinygrad's kernels.

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/opt/front_half.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/scheduler.hpp"
#include "wavescope/compiler/render/lowering.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;
using Catch::Matchers::Contains;

namespace {

// The spec's running example (§5.2): out[i] = sum_j a[i, j]*2 + b[i, j] for 64x256 floats.
UOp row_sum(const char *name = "test") {
  kernel::KernelBuilder k(name);
  auto out = k.buffer(dtypes::float32, 64), a = k.buffer(dtypes::float32, 64 * 256),
       b = k.buffer(dtypes::float32, 64 * 256);
  auto j = k.range(256, AxisType::Reduce), i = k.range(64, AxisType::Weak);
  auto idx = i * const_int(256) + j;
  k.store(out, i, k.reduce(Op::ADD, k.read(a, idx) * k.f(2.0) + k.read(b, idx), {j}), {i});
  return k.finish();
}

// C = A @ B for n x n floats.
UOp matmul(std::int64_t n) {
  kernel::KernelBuilder k("test");
  auto c = k.buffer(dtypes::float32, n * n), a = k.buffer(dtypes::float32, n * n),
       b = k.buffer(dtypes::float32, n * n);
  auto i = k.range(n, AxisType::Weak), j = k.range(n, AxisType::Weak),
       r = k.range(n, AxisType::Reduce);
  const UOp nn = const_int(n);
  k.store(c, i * nn + j, k.reduce(Op::ADD, k.read(a, i * nn + r) * k.read(b, r * nn + j), {r}),
          {i, j});
  return k.finish();
}

std::string opts_of(const UOp &optimized) {
  return to_string(kernel_info_of(optimized).applied_opts);
}

UOp optimize(const UOp &k, const Target &t) { return apply_opts(prepare_ranges(k), t); }

}  // namespace

TEST_CASE("scheduler: axes sort by type then id, and a split substitutes r := r'*a + n",
          "[compiler][opt]") {
  Scheduler s(prepare_ranges(row_sum()), opt::target("c"));
  CHECK(s.shape_text() == "L64 R256");
  CHECK(s.full_shape() == std::vector<std::int64_t>{64, 256});
  s.apply_opt({OptOp::Unroll, 0, 4});
  CHECK(s.shape_text() == "L64 R64 r4");
  s.apply_opt({OptOp::Split, 0, 8, AxisType::Upcast, true});  // top: the 8 is the outer part
  CHECK(s.shape_text() == "L8 u8 R64 r4");
  const auto rngs = s.rngs();
  // The old index i*256 + j is now (u*8 + L)*256 + (R*4 + r).
  bool found = false;
  for (const auto &u : toposort(s.ast()))
    found |= u.op() == Op::ADD && u.src(0).op() == Op::MUL && u.src(0).src(0) == rngs[2] &&
             u.src(1) == rngs[3];
  CHECK(found);
  CHECK(to_string(s.applied_opts()) == "UNROLL:0:4,SPLIT:0:8:UPCAST:top");
  const UOp done = s.optimized_ast();
  CHECK(kernel::kernel_name(done) == "r_8_8_64_4");
  CHECK(opts_of(done) == "UNROLL:0:4,SPLIT:0:8:UPCAST:top");
}

TEST_CASE("scheduler: the spec's running example: UNROLL 4 on the CPU, GROUPTOP 16 on AMD",
          "[compiler][opt]") {
  const UOp cpu = optimize(row_sum(), opt::target("c"));
  CHECK(kernel::kernel_name(cpu) == "r_64_64_4");
  CHECK(opts_of(cpu) == "UNROLL:0:4");
  const UOp amd = optimize(row_sum(), opt::target("gfx1100"));
  CHECK(kernel::kernel_name(amd) == "r_64_16_16");
  CHECK(opts_of(amd) == "GROUPTOP:0:16");
  // A name the optimizer did not give is kept.
  CHECK(kernel::kernel_name(optimize(row_sum("rowsum"), opt::target("c"))) == "rowsum");
}

TEST_CASE("heuristic: matmul 512 is register-tiled 4x4 and unrolled by 4, as tinygrad does",
          "[compiler][opt]") {
  const UOp cpu = optimize(matmul(512), opt::target("c"));
  CHECK(kernel::kernel_name(cpu) == "r_128_128_4_4_128_4");
  CHECK(opts_of(cpu) == "UPCAST:1:4,UPCAST:0:4,UNROLL:0:4");
  // On a GPU: also locals (16 x 8 work-items here, as tinygrad chooses).
  const UOp gpu = optimize(matmul(512), opt::target("gfx1100"));
  CHECK(opts_of(gpu).rfind("UPCAST:1:4,UPCAST:0:4,UNROLL:0:4,LOCAL:", 0) == 0);
}

TEST_CASE("heuristic: tinygrad's CPU kernels get the names tinygrad gave them",
          "[compiler][opt][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  // The corpus was recorded on a machine with several CPU threads: the matmul kernel's THREAD
  // axis of 2 (r_32_2_64_16_4) needs a target that allows threads.
  const Target cpu = cpu_with_threads(8);
  std::size_t kernels = 0;
  std::map<std::string, std::string> opts;
  for (const char *w : {"elementwise", "matmul_relu_sum", "softmax"})
    for (const auto &k : kernel::tinygrad_kernels(root / w / "rewrites.pkl")) {
      const std::string name = kernel::kernel_name(k);
      INFO(w << " " << name);
      const UOp optimized = optimize(k.with_arg(kernel::kernel_info("test")), cpu);
      CHECK(kernel::kernel_name(optimized) == name);
      opts[name] = opts_of(optimized);
      ++kernels;
    }
  CHECK(kernels == 13);
  CHECK(opts["r_32_2_64_16_4"] == "UNROLL:1:4,THREAD:0:2");
  CHECK(opts["r_32_32_4"] == "UNROLL:0:4");
  CHECK(opts["E_32_32_4"] == "UPCAST:1:4");
  CHECK(opts["E_2"] == "UPCAST:0:0");
}

TEST_CASE("heuristic: tinygrad's kernels on gfx1100 get tinygrad's GPU names and opts",
          "[compiler][opt][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  // What tinygrad a9069c177a's full_rewrite_to_sink with AMDLLVMRenderer(gfx1100) gives for the
  // same ASTs (GROUPTOP 16 for small outputs, LOCAL 32 on axis 0, ...).
  const std::vector<std::pair<std::string, std::string>> want{
      {"E_2", "UPCAST:0:0"},
      {"E_16_32_2", "UPCAST:0:0,LOCAL:0:32"},
      {"E_8_32_4", "UPCAST:0:4,LOCAL:0:32"},
      {"E_2", "UPCAST:0:0"},
      {"E_64_32_2", "UPCAST:0:0,LOCAL:0:32"},
      {"E_2", "UPCAST:0:0"},
      {"E_2", "LOCAL:0:2"},
      {"r_64_16_64_4", "GROUPTOP:1:16"},
      {"E_2", "UPCAST:0:0"},
      {"E_64_32_2", "UPCAST:0:0,LOCAL:0:32"},
      {"r_32_16_8", "GROUPTOP:0:16"},
      {"r_32_16_8", "GROUPTOP:0:16"},
      {"E_4_2_8_16_4", "UPCAST:1:4,LOCAL:0:8,LOCAL:1:16"}};
  std::size_t i = 0;
  for (const char *w : {"elementwise", "matmul_relu_sum", "softmax"})
    for (const auto &k : kernel::tinygrad_kernels(root / w / "rewrites.pkl")) {
      REQUIRE(i < want.size());
      INFO(w << " " << kernel::kernel_name(k));
      const UOp optimized =
          optimize(k.with_arg(kernel::kernel_info("test")), opt::target("gfx1100"));
      CHECK(kernel::kernel_name(optimized) == want[i].first);
      CHECK(opts_of(optimized) == want[i].second);
      ++i;
    }
  CHECK(i == want.size());
}

TEST_CASE("scheduler: an opt that does not apply is a clear error naming it, the axis and why",
          "[compiler][opt]") {
  const UOp k = prepare_ranges(row_sum());
  const std::vector<std::pair<std::string, std::string>> cases{
      {"UPCAST:0:3", "3 does not divide axis 0 (L64)"},
      {"UPCAST:0:32", "upcasts more than 16"},
      {"UPCAST:1:4", "axis 1 is REDUCE, UPCAST is for GLOBAL/LOCAL/loop axes"},
      {"UNROLL:1:4", "there is no unrollable (reduce) axis 1 (the kernel has 1)"},
      {"UNROLL:0:64", "unrolls more than 32"},
      {"UPCAST:7:2", "there is no axis 7 (the kernel has 2)"},
      {"LOCAL:0:4", "target c has no local axes"},
      {"GROUPTOP:0:16", "target c has no local axes"},
      {"THREAD:0:2", "2 threads, the target has 1"},
      {"SPLIT:0:4:REDUCE", "SPLIT into REDUCE is not an optimization"},
      {"PADTO:0:1000", "more than quadruples the work"},
      {"SWAP:0:1", "SWAP is for two GLOBAL axes"},
  };
  for (const auto &[text, why] : cases) {
    INFO(text);
    Scheduler s(k, opt::target("c"));
    try {
      for (const auto &o : parse_opt_list(text)) s.apply_opt(o);
      FAIL("applied");
    } catch (const InvalidOpt &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      CHECK_THAT(e.what(), Contains("invalid opt " + text));
      CHECK_THAT(e.what(), Contains("kernel test (L64 R256)"));
      CHECK_THAT(e.what(), Contains(why));
    }
  }
  // On a GPU the same GROUPTOP applies; with NOLOCALS it does not.
  Scheduler gpu(k, opt::target("gfx1100"));
  gpu.apply_opt({OptOp::NoLocals, 0, 0});
  CHECK_THROWS_WITH(gpu.apply_opt({OptOp::GroupTop, 0, 16}), Contains("locals are forbidden"));
  // Explicit opts through the lowering: the same error, never a crash.
  const UOp bad = with_opt_choice(row_sum(), OptChoice::list(parse_opt_list("UPCAST:0:3")));
  CHECK_THROWS_AS(render::lower_kernel(bad), InvalidOpt);
}

TEST_CASE("scheduler: PADTO gates the accesses beyond the old extent and the reduce's value",
          "[compiler][opt]") {
  // A 60 x 250 row sum padded to 64 x 256 computes the same.
  kernel::KernelBuilder b("test");
  auto out = b.buffer(dtypes::float32, 60), a = b.buffer(dtypes::float32, 60 * 250);
  auto j = b.range(250, AxisType::Reduce), i = b.range(60, AxisType::Weak);
  b.store(out, i, b.reduce(Op::MAX, b.read(a, i * const_int(250) + j), {j}), {i});
  const UOp k = b.finish();
  for (const char *list : {"PADTO:0:16", "PADTO:1:64,UNROLL:0:4", "PADTO:0:8,PADTO:1:8"}) {
    INFO(list);
    const UOp padded = with_opt_choice(k, OptChoice::list(parse_opt_list(list)));
    // the padding is gated: a where, or (moved from the index) a gated load or store
    bool gated = false;
    for (const UOp &u : render::lower_kernel(padded).program)
      gated |= u.op() == Op::WHERE || u.op() == Op::IF || (u.op() == Op::LOAD && u.size() == 3);
    CHECK(gated);
    const auto c = kernel::check_with_interpreter(k, 1, codegen::compile_for_host(padded, "c"));
    CHECK(c.ok);
  }
}
