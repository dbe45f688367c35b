// The C backend: every built-in example lowered by the named passes, rendered as C, compiled by
// the system C compiler, run, and compared with the reference interpreter; the lowering recorded
// in a rewrite trace; errors for what the renderer or compiler refuses.

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kernel_fixtures.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/lower/linearize.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using Catch::Matchers::Contains;

namespace {

Comparison run_both(const UOp &k, std::uint64_t seed) {
  const auto compiled =
      render::CKernel::compile(render::render_c(render::lower_for_c(k)), kernel_params(k));
  return check_with_interpreter(k, seed, [&](std::vector<HostBuffer> &b) { compiled.run(b); });
}

}  // namespace

TEST_CASE("C backend: every built-in example computes what the interpreter computes",
          "[compiler][kernel][c]") {
  std::size_t kernels = 0, elements = 0;
  for (const auto &name : builtin_example_names())
    for (const auto &k : builtin_example(name)) {
      INFO(name << " " << kernel_name(k));
      for (std::uint64_t seed : {1u, 2u}) {
        const auto c = run_both(k, seed);
        CHECK(c.ok);
        CHECK(c.mismatches == 0);
        // The heuristic's unrolled sums add in another order than the interpreter.
        CHECK(c.max_rel_err < 1e-4);
      }
      for (const auto &p : kernel_params(k))
        if (p.written) elements += static_cast<std::size_t>(p.size);
      ++kernels;
    }
  CHECK(kernels == 8);
  CHECK(elements == 512 + 24 + 40 + 320 + 1 + 384 + 384 + 324);
}

TEST_CASE("C backend: a kernel's results differ when the kernel does", "[compiler][kernel][c]") {
  // The comparison can fail: a kernel that adds 1 against the interpreter of one that does not.
  KernelBuilder a("plus"), b("plus");
  for (auto *k : {&a, &b}) {
    auto out = k->buffer(dtypes::float32, 8), in = k->buffer(dtypes::float32, 8);
    auto i = k->range(8);
    k->store(out, i, k == &a ? k->read(in, i) + k->f(1.0) : k->read(in, i), {i});
  }
  const UOp ka = a.finish(), kb = b.finish();
  const auto params = kernel_params(ka);
  auto got = make_buffers(params, 5);
  auto want = got;
  render::CKernel::compile(render::render_c(render::lower_for_c(ka)), params).run(got);
  interpret(kb, want);
  const auto c = compare_outputs(params, got, want);
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 8);
  CHECK(c.max_abs_err > 0.99);
  CHECK(c.max_abs_err < 1.01);  // float rounding of x+1
}

TEST_CASE("C backend: the lowering is recorded pass by pass in the rewrite trace",
          "[compiler][kernel][c]") {
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    for (const auto &k : builtin_example("matmul")) {
      rewrite::TraceGroup group(kernel_name(k));
      render::lower_for_c(opt::with_opt_choice(k, opt::OptChoice::none()));
    }
  }
  REQUIRE(trace.groups().size() == 2);
  CHECK(trace.groups()[0].name == "r_16_20_24");
  std::vector<std::string> names;
  std::size_t steps = 0, load_steps = 0;
  for (const auto &rw : trace.groups()[0].rewrites) {
    names.push_back(rw.name);
    CHECK_THAT(rw.loc, Contains(".cpp:"));
    for (const auto &s : rw.steps) {
      ++steps;
      CHECK_FALSE(s.rule.empty());
      CHECK_FALSE(s.rule_loc.empty());
      load_steps += s.rule == "add loads: read of memory used as a value -> LOAD";
    }
    CHECK(trace.replay(rw).back() == trace.rebuild(*rw.output));
  }
  // The front half (check_merge_0_1 is nested in simplify ranges: merging the two output loops
  // would add a division, so it is not done), then the back half to the linearizer's form.
  CHECK(names == std::vector<std::string>{"split ranges",
                                          "initial symbolic",
                                          "simplify ranges",
                                          "check_merge_0_1",
                                          "flatten range",
                                          "postopt symbolic",
                                          "expander",
                                          "expander: drop tags",
                                          "remove reduces",
                                          "add local buffers",
                                          "add gpudims",
                                          "expand broadcast / add loads",
                                          "devectorize",
                                          "early symbolic",
                                          "memory coalescing",
                                          "memory coalescing",
                                          "extra symbolic",
                                          "commit weak operands",
                                          "lower all index dtypes",
                                          "fold lowered casts",
                                          "final symbolic",
                                          "cast float alu operands",
                                          "early decompositions",
                                          "late decompositions",
                                          "move gates from index",
                                          "final rewrite",
                                          "add implicit barriers",
                                          "add control flow",
                                          "number params"});
  CHECK(load_steps >= 1);
  CHECK(steps >= 10);
  // The JSON the app's rewrite browser opens reads back with the same records.
  const auto back = rewrite::RewriteTrace::read_json(trace.to_json());
  CHECK(back.groups().size() == 2);
  CHECK(back.groups()[0].rewrites.size() == names.size());
}

TEST_CASE("C backend: floor division of negative values matches the interpreter",
          "[compiler][kernel][c]") {
  KernelBuilder k("floors");
  auto out = k.buffer(dtypes::int32, 32), in = k.buffer(dtypes::int32, 32);
  auto i = k.range(32);
  const UOp x = k.read(in, i);
  const UOp three = const_int(3, dtypes::int32);
  k.store(out, i, floordiv(x, three) * const_int(10, dtypes::int32) + floormod(x, three), {i});
  const UOp ast = k.finish();
  const auto c = run_both(ast, 9);
  CHECK(c.ok);
  // truncating division and remainder with the sign fix-up of the early decompositions
  const std::string src = render::render_c(render::lower_for_c(ast));
  CHECK_THAT(src, Contains(" / 3)"));
  CHECK_THAT(src, Contains(" % 3)"));
  CHECK(src.find("floordiv") == std::string::npos);
}

TEST_CASE("C backend: what it cannot render or compile is a clear error", "[compiler][kernel][c]") {
  // fp8 has no renderer (half and bfloat16 do: test_float16.cpp)
  KernelBuilder k("fp8s");
  auto out = k.buffer(dtypes::float8_e4m3, 4), in = k.buffer(dtypes::float8_e4m3, 4);
  auto i = k.range(4);
  k.store(out, i, k.read(in, i), {i});
  try {
    render::render_c(render::lower_for_c(k.finish()));
    FAIL("rendered");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("does not support dtype float8_e4m3"));
  }
  // bfloat16 arithmetic is the lowering's to emulate: a graph that is not lowered is refused
  try {
    render::render_c(testing::unlowered_bfloat16_casts());
    FAIL("rendered");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("bfloat16 left to the renderer"));
  }
  try {
    render::CKernel::compile("this is not C", {});
    FAIL("compiled");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Contains("the C compiler"));
  }
  CHECK(render::c_identifier("\x1b[34mr_4\x1b[0m") == "__34mr_4__0m");
  CHECK(render::c_identifier("4x") == "k_4x");
  CHECK_THROWS_AS(load_kernels("no-such-example-or-file"), wavescope::Error);
  CHECK_THROWS_AS(load_kernels("matmul", "nope"), wavescope::Error);
  CHECK(load_kernels("matmul", "r_320").size() == 1);
}

TEST_CASE("C backend: a reduce is computed in the outermost loop that defines its ranges",
          "[compiler][kernel][c]") {
  // softmax's max and sum depend on the row only: both accumulators are set and both reduce
  // loops run before the column loop.
  const UOp k = opt::with_opt_choice(builtin_example("softmax")[0], opt::OptChoice::none());
  const std::string c = render::render_c(render::lower_for_c(k));
  INFO(c);
  const auto column = c.find("for (int Lidx1 ");
  REQUIRE(column != std::string::npos);
  const auto max_init = c.find("+0)) = -__builtin_inff();");
  const auto sum_init = c.find("+0)) = 0x0p+0f;");
  REQUIRE(max_init != std::string::npos);
  REQUIRE(sum_init != std::string::npos);
  CHECK(max_init < sum_init);
  CHECK(sum_init < column);
  CHECK(c.find("= -__builtin_inff();", column) == std::string::npos);
  CHECK(c.find("for (int Ridx", column) == std::string::npos);
}

TEST_CASE("C backend: a*b+c is two roundings, not a fused multiply-add, whatever the compiler",
          "[compiler][kernel][c]") {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: rounded to float, the 2^-24 is lost (a tie, to even), so
  // a*b - (1 + 2^-11) is 0 in two roundings and 2^-24 in one. -ffp-contract=off keeps the bits the
  // interpreter's and the same from every C compiler.
  KernelBuilder k("muladd");
  auto out = k.buffer(dtypes::float32, 1), a = k.buffer(dtypes::float32, 1),
       b = k.buffer(dtypes::float32, 1), c = k.buffer(dtypes::float32, 1);
  auto i = k.range(1);
  k.store(out, i, k.read(a, i) * k.read(b, i) + k.read(c, i), {i});
  const UOp sink = k.finish();
  auto buffers = make_buffers(kernel_params(sink), 1);
  buffers[1].data = {1.0 + 0x1p-12};
  buffers[2].data = {1.0 + 0x1p-12};
  buffers[3].data = {-(1.0 + 0x1p-11)};
  render::CKernel::compile(render::render_c(render::lower_for_c(sink)), kernel_params(sink))
      .run(buffers);
  CHECK(buffers[0].data[0] == 0.0);
}

TEST_CASE("C backend: $CC, else LLVM 22's own clang compiles the C target",
          "[compiler][kernel][c]") {
  const char *set = std::getenv("CC");
  const std::string saved = set ? set : "";
  ::setenv("CC", "my-cc", 1);
  CHECK(render::host_c_compiler() == "my-cc");
  ::unsetenv("CC");
  const std::string own = std::string(WAVESCOPE_LLVM_TOOLS_DIR) + "/clang";
  if (::access(own.c_str(), X_OK) == 0)
    CHECK(render::host_c_compiler() == own);  // before any clang on PATH
  else
    WARN("no " << own << ": clang on PATH or cc is used");
  if (set) ::setenv("CC", saved.c_str(), 1);
}
