// Memory coalescing of the reads a padded view clamps (lower/coalesce.cpp): a convolution's row of
// neighbouring input reads under one gate becomes one gated vector load, as tinygrad's float4
// loads of r_8_64_16_4_4_32_3_3, and the results stay the interpreter's; a clamped read whose
// value is used unmasked keeps reading the clamped element.

#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

using namespace wavescope::compiler;
using kernel::KernelBuilder;
using kernel::View;

namespace {

constexpr DType f32 = dtypes::float32;

std::string fmt_name(std::int64_t C, std::int64_t H, std::int64_t W, std::int64_t O) {
  return "r_" + std::to_string(O) + "_" + std::to_string(H) + "_" + std::to_string(W) + "_" +
         std::to_string(C) + "_3_3";
}

// conv2d (1, C, H, W) * (O, C, 3, 3), padding 1, as bench_compile's BM_HostGflops builds it at a
// smaller shape; with `masked` false the padded read is the clamped one without its mask.
UOp conv2d(std::int64_t C, std::int64_t H, std::int64_t W, std::int64_t O, bool masked = true) {
  KernelBuilder k(fmt_name(C, H, W, O));
  auto out = k.buffer(f32, O * H * W), in = k.buffer(f32, C * H * W),
       wt = k.buffer(f32, O * C * 3 * 3);
  auto o = k.range(O), y = k.range(H), x = k.range(W);
  auto c = k.range(C, AxisType::Reduce), ky = k.range(3, AxisType::Reduce),
       kx = k.range(3, AxisType::Reduce);
  const View vin = View::contiguous({C, H, W}).pad({{0, 0}, {1, 1}, {1, 1}});
  const View vw = View::contiguous({O, C, 3, 3});
  UOp input;
  if (masked) {
    input = k.read(in, vin, {c, y + ky, x + kx});
  } else {
    auto [flat, valid] = vin.index({c, y + ky, x + kx});
    input = k.read(in, where(valid, flat, const_int(0, dtypes::index)));
  }
  auto prod = input * k.read(wt, vw, {o, c, ky, kx});
  k.store(out, View::contiguous({O, H, W}).index({o, y, x}).first,
          k.reduce(Op::ADD, prod, {c, ky, kx}), {o, y, x});
  return k.finish();
}

// A float4 read of the input at (gate ? index : 0).
const std::regex &clamped_vector_read() {
  static const std::regex re(R"(\(\*\(\(float4 \*\)\(data1\+\(alu[0-9]+ \? .* : 0\)\)\)\))");
  return re;
}

}  // namespace

TEST_CASE("a padded convolution's gated row reads become gated vector loads",
          "[compiler][lower][coalesce]") {
  const UOp k = conv2d(4, 16, 16, 8);
  const std::string c = render::render_c(render::lower_for_c(k));
  INFO(c);
  // The rows above and below the output row: gated by the row's bounds alone, four at a time,
  // read at the clamped element 0 where the gate fails (no branch; the lanes are masked).
  CHECK(std::regex_search(c, clamped_vector_read()));
  for (const char *target : {"c", "cpu"}) {
    INFO(target);
    const auto compiled = codegen::compile_for_host(k, target);
    for (std::uint64_t seed : {1u, 2u}) {
      const auto cmp = kernel::check_with_interpreter(k, seed, compiled);
      CHECK(cmp.ok);
      CHECK(cmp.mismatches == 0);
    }
  }
}

TEST_CASE("a clamped read used without its mask is not gated", "[compiler][lower][coalesce]") {
  // Out of the view the read is of element 0 and that value is summed: a gated load would give 0.
  const UOp k = conv2d(4, 16, 16, 8, false);
  const std::string c = render::render_c(render::lower_for_c(k));
  INFO(c);
  CHECK_FALSE(std::regex_search(c, clamped_vector_read()));
  CHECK(c.find("? (*((float4 *)(data1+") == std::string::npos);
  for (const char *target : {"c", "cpu"}) {
    INFO(target);
    const auto cmp = kernel::check_with_interpreter(k, 1, codegen::compile_for_host(k, target));
    CHECK(cmp.ok);
    CHECK(cmp.mismatches == 0);
  }
}
