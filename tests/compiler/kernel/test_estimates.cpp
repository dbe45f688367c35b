// Kernel cost estimates (kernel/estimates.hpp) on the built-in examples, counted by hand: value ALU
// ops times the loops open around them (a REDUCE one op per accumulated element), and the bytes of
// every buffer read plus every buffer written.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/kernel/estimates.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"

using namespace wavescope::compiler;

TEST_CASE("estimates: matmul is 2*M*N*K ops over its three buffers, relu+sum two ops per element") {
  const auto kernels = kernel::builtin_example("matmul");
  REQUIRE(kernels.size() == 2);
  const std::uint64_t M = 16, N = 20, K = 24;
  const auto mm = kernel::estimate(kernels[0]);
  CHECK(mm.ops == 2 * M * N * K);                  // MUL per (i, j, k), the REDUCE's ADD per k
  CHECK(mm.bytes == 4 * (M * N + M * K + K * N));  // C written, A and B read
  const auto sum = kernel::estimate(kernels[1]);
  CHECK(sum.ops == 2 * M * N);          // MAX (relu) and the REDUCE's ADD per element
  CHECK(sum.bytes == 4 * (1 + M * N));  // the scalar written, C read
}

TEST_CASE("estimates: index arithmetic does not count, broadcast reads count their buffer once") {
  const auto kernels = kernel::builtin_example("elementwise");
  REQUIRE(kernels.size() == 1);
  const std::uint64_t M = 16, N = 32;
  const auto e = kernel::estimate(kernels[0]);
  CHECK(e.ops == 3 * M * N);                  // MUL, ADD, MAX; not the row*N+col index math
  CHECK(e.bytes == 4 * (M * N + M * N + N));  // out, a, and b (N floats, read M times)
}

TEST_CASE("estimates: a graph that is not a kernel is refused") {
  CHECK_THROWS_AS(kernel::estimate(const_int(1, dtypes::index)), wavescope::Error);
}
