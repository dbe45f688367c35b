// tinygrad's own kernel ASTs, read from the rewrites.pkl of each tinygrad-viz workload (the input
// of each kernel context's "View Base AST" step), compiled to C, run, and compared with the
// reference interpreter.

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;

TEST_CASE("tinygrad kernels: every kernel of every workload runs on C as the interpreter says",
          "[compiler][kernel][c][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  // The kernel contexts of each workload, by name, as tinygrad's VIZ lists them.
  const std::map<std::string, std::vector<std::string>> expected{
      {"elementwise", {"E_2", "E_512_2", "E_256_4"}},
      {"matmul_relu_sum", {"E_2", "E_2048_2", "E_2", "E_2", "r_32_2_64_16_4"}},
      {"softmax", {"E_2", "E_2048_2", "r_32_32_4", "r_32_32_4", "E_32_32_4"}},
  };
  std::size_t kernels = 0, reduces = 0, written = 0;
  for (const auto &[workload, names] : expected) {
    const auto pkl = root / workload / "rewrites.pkl";
    const auto ks = load_kernels(pkl.string());
    REQUIRE(ks.size() == names.size());
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const UOp &k = ks[i];
      INFO(workload << " kernel " << i << " " << kernel_name(k));
      CHECK(kernel_name(k) == names[i]);
      CHECK(kernel_from_json(kernel_to_json(k), workload) == k);
      const auto params = kernel_params(k);
      for (std::uint64_t seed : {1u, 7u}) {
        auto got = make_buffers(params, seed);
        auto want = got;
        render::CKernel::compile(render::render_c(render::lower_for_c(k)), params).run(got);
        interpret(k, want);
        const auto c = compare_outputs(params, got, want);
        CHECK(c.ok);
        // the lowering commits a weak float constant to float32 before the multiply, as tinygrad
        // does; the interpreter keeps it a double (E_256_4's sin(sqrt(x*3+1)*exp2(x*log2(e))))
        CHECK(c.max_rel_err < 1e-4);
        // The outputs are not all zero: the kernel really wrote them.
        bool nonzero = false;
        for (std::size_t p = 0; p < params.size(); ++p)
          if (params[p].written)
            for (double v : want[p].data) nonzero |= v != 0;
        CHECK(nonzero);
      }
      for (const auto &p : params) written += p.written;
      reduces += graph_has_op(k, Op::REDUCE);
      ++kernels;
    }
  }
  CHECK(kernels == 13);
  CHECK(reduces == 3);  // matmul's r_32_2_64_16_4 and softmax's two r_32_32_4
  CHECK(written == 13);
}

TEST_CASE("tinygrad kernels: a pickle that is not a rewrite trace is refused clearly",
          "[compiler][kernel][tinygrad]") {
  WAVESCOPE_REQUIRE_TESTDATA(profile, "tinygrad-viz/softmax/profile.pkl");
  try {
    load_kernels(profile.string());
    FAIL("read kernels from a profile");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK(std::string(e.what()).find("profile.pkl") != std::string::npos);
  }
}
