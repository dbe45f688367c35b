// Host kernels run on buffers already in their element types (compile_for_host_raw): the same
// results as through the double host buffers, for both host targets.

#include <vector>

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

using namespace wavescope::compiler;

TEST_CASE("host kernels: raw float32 buffers give what the host buffers give",
          "[compiler][kernel][c][llvm]") {
  const UOp k = kernel::builtin_example("softmax")[0];
  const auto params = kernel::kernel_params(k);
  for (const auto &target : codegen::host_targets()) {
    INFO(target);
    auto want = kernel::make_buffers(params, 4);
    codegen::compile_for_host(k, target)(want);
    std::vector<std::vector<float>> raw;
    std::vector<void *> args;
    for (const auto &b : kernel::make_buffers(params, 4))
      raw.emplace_back(b.data.begin(), b.data.end());
    for (auto &r : raw) args.push_back(r.data());
    codegen::compile_for_host_raw(k, target)(args.data());
    std::size_t compared = 0;
    for (std::size_t p = 0; p < params.size(); ++p) {
      if (!params[p].written) continue;
      REQUIRE(raw[p].size() == want[p].data.size());
      for (std::size_t i = 0; i < raw[p].size(); ++i, ++compared)
        CHECK(static_cast<double>(raw[p][i]) == want[p].data[i]);
    }
    CHECK(compared == 384);
  }
  CHECK_THROWS_AS(codegen::compile_for_host_raw(k, "gfx1100"), wavescope::Error);
}
