// The LLVM IR backend for the host CPU: every built-in example and every tinygrad kernel lowered
// by the shared passes, linearized, rendered as LLVM IR (opaque pointers), compiled in process by
// ORC LLJIT, run, and compared with the reference interpreter; errors for what it refuses.

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "kernel_fixtures.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/cpu_jit.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/lower/linearize.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"
#include "wavescope/compiler/render/lowering.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using Catch::Matchers::Contains;

namespace {

Comparison run_cpu(const UOp &k, std::uint64_t seed) {
  const auto compiled = codegen::CpuKernel::compile(k);
  return check_with_interpreter(k, seed, [&](std::vector<HostBuffer> &b) { compiled.run(b); });
}

std::size_t count(const std::string &text, const std::string &what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("LLVM CPU: every built-in example computes what the interpreter computes",
          "[compiler][kernel][llvm]") {
  std::size_t kernels = 0;
  for (const auto &name : builtin_example_names())
    for (const auto &k : builtin_example(name)) {
      INFO(name << " " << kernel_name(k));
      for (std::uint64_t seed : {1u, 2u}) {
        const auto c = run_cpu(k, seed);
        CHECK(c.ok);
        CHECK(c.mismatches == 0);
        CHECK(c.max_rel_err < 1e-4);
      }
      ++kernels;
    }
  CHECK(kernels == 8);
}

TEST_CASE("LLVM CPU: every tinygrad kernel of every workload computes what the interpreter does",
          "[compiler][kernel][llvm][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t kernels = 0, workloads = 0;
  for (const char *workload : {"elementwise", "matmul_relu_sum", "softmax"}) {
    const auto ks = load_kernels((root / workload / "rewrites.pkl").string());
    ++workloads;
    for (const auto &k : ks) {
      INFO(workload << " " << kernel_name(k));
      for (std::uint64_t seed : {1u, 7u}) {
        const auto c = run_cpu(k, seed);
        CHECK(c.ok);
        CHECK(c.max_rel_err < 1e-4);
      }
      ++kernels;
    }
  }
  CHECK(workloads == 3);
  CHECK(kernels == 13);
}

TEST_CASE("LLVM CPU: the IR uses opaque pointers, phi loops and an entry point",
          "[compiler][kernel][llvm]") {
  const UOp k = opt::with_opt_choice(builtin_example("matmul")[0], opt::OptChoice::none());
  const std::string ir = render::llvm_ir_for_cpu(k);
  CHECK_THAT(ir, Contains("define void @r_16_20_24(ptr noalias align 16 %data0, ptr noalias "
                          "align 16 readonly"));
  CHECK_THAT(ir, Contains("define void @wavescope_entry(ptr %args)"));
  CHECK_THAT(ir, Contains(" = phi i32 [ 0, %"));  // index math lowered to int32
  CHECK_THAT(ir, Contains("getelementptr inbounds float, ptr %data"));
  CHECK_THAT(ir, Contains("fadd nsz arcp contract afn float"));
  CHECK(ir.find("float*") == std::string::npos);
  CHECK(count(ir, "alloca [1 x float]") == 1);  // one accumulator (a REG buffer)
  // Three loops (two output axes and the reduce), each with a header, footer and exit.
  CHECK(count(ir, ".exit:") == 3);
}

TEST_CASE("LLVM CPU: softmax's reduces run once per row, before the column loop",
          "[compiler][kernel][llvm]") {
  const UOp k = opt::with_opt_choice(builtin_example("softmax")[0], opt::OptChoice::none());
  const auto lowered = lower::lower(k, lower::render_target("cpu"));
  std::size_t loops = 0, depth = 0, max_depth = 0, acc_inits_before_column = 0;
  bool column_open = false;
  for (const UOp &u : lowered.program) {
    if (u.op() == Op::RANGE) {
      ++loops;
      max_depth = std::max(max_depth, ++depth);
      if (depth == 2 && std::get<RangeArg>(u.arg()).type != AxisType::Reduce) column_open = true;
    }
    if (u.op() == Op::END) --depth;
    // the identity stored into an accumulator (a REG buffer) before its loop
    if (u.op() == Op::STORE && u.src(1).op() == Op::CONST && !column_open && depth == 1)
      ++acc_inits_before_column;
  }
  CHECK(depth == 0);
  CHECK(max_depth == 2);
  CHECK(acc_inits_before_column == 2);  // the max and the sum, once per row
  CHECK(loops == 4);                    // row, max, sum, column
}

TEST_CASE("LLVM CPU: what it cannot render or compile is a clear error",
          "[compiler][kernel][llvm]") {
  // fp8 has no renderer (half and bfloat16 do: test_float16.cpp)
  KernelBuilder k("fp8s");
  auto out = k.buffer(dtypes::float8_e4m3, 4), in = k.buffer(dtypes::float8_e4m3, 4);
  auto i = k.range(4);
  k.store(out, i, k.read(in, i), {i});
  try {
    render::llvm_ir_for_cpu(k.finish());
    FAIL("rendered");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Contains("does not support dtype float8_e4m3"));
  }
  // bfloat16 arithmetic is the lowering's to emulate: a graph that is not lowered is refused
  try {
    render::render_llvm_ir(testing::unlowered_bfloat16_casts());
    FAIL("rendered");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("bfloat16 left to the renderer"));
  }
  try {
    codegen::CpuKernel::compile("define void @f() {\n  ret i32 0\n}\n", {});
    FAIL("compiled");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Contains("LLVM IR line 2"));
  }
  try {
    codegen::CpuKernel::compile("define void @f() {\n  ret void\n}\n", {});
    FAIL("compiled without an entry point");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("wavescope_entry"));
  }
  CHECK_THROWS_AS(codegen::compile_for_host(builtin_example("reduce")[0], "gfx1100"),
                  wavescope::Error);
  // A graph that is not lowered: its REDUCE reaches the renderer.
  try {
    lower::LoweredKernel raw;
    raw.name = "raw";
    raw.program = lower::linearize(builtin_example("reduce")[0]);
    render::render_llvm_ir(raw);
    FAIL("rendered");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("does not support REDUCE (was it lowered?)"));
  }
}

TEST_CASE("LLVM CPU: both host targets agree through compile_for_host",
          "[compiler][kernel][llvm]") {
  const UOp k = builtin_example("layernorm")[0];
  const auto params = kernel_params(k);
  auto a = make_buffers(params, 3);
  auto b = a;
  codegen::compile_for_host(k, "c")(a);
  codegen::compile_for_host(k, "cpu")(b);
  const auto c = compare_outputs(params, b, a);
  CHECK(c.ok);
  CHECK(codegen::host_targets() == std::vector<std::string>{"c", "cpu"});
}
