// Half and bfloat16 kernels: tinygrad's kernels that compute in 16-bit floats (kernel AST fixtures
// in tests/compiler/data/kernels) compile for every target and compute on both host targets what
// the interpreter computes; bfloat16 reaches no renderer as arithmetic; the float <-> bfloat16 and
// float <-> half casts round to nearest even and keep NaN, infinity and denormals; host buffers
// of half and bfloat16 are their 16 bits.

#include <stdlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "kernel_fixtures.hpp"
#include "render/host_buffers.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using Catch::Matchers::StartsWith;

namespace {

const std::filesystem::path kFixtures =
    std::filesystem::path(WAVESCOPE_COMPILER_TEST_DATA) / "kernels";

std::vector<std::pair<std::string, UOp>> fixtures() { return testing::kernel_fixtures(kFixtures); }

float float_of(std::uint32_t bits) { return std::bit_cast<float>(bits); }
std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

// out[i] = float(T(in[i])) for 16-bit T: the kernel that round-trips a float through T.
UOp round_trip_kernel(DType t, std::int64_t n) {
  KernelBuilder k(fmt::format("round_trip_{}", to_string(t)));
  auto out = k.buffer(dtypes::float32, n), in = k.buffer(dtypes::float32, n);
  auto i = k.range(n);
  k.store(out, i, cast(cast(k.read(in, i), t), dtypes::float32), {i});
  return k.finish();
}

// Runs the round trip of `inputs` (float bits) on `target` through raw buffers (a NaN's payload
// reaches the kernel as it is) and returns the output bits.
std::vector<std::uint32_t> run_round_trip(DType t, const std::vector<std::uint32_t> &inputs,
                                          const std::string &target) {
  const UOp k = round_trip_kernel(t, static_cast<std::int64_t>(inputs.size()));
  std::vector<float> in(inputs.size()), out(inputs.size(), -1.0f);
  for (std::size_t i = 0; i < inputs.size(); ++i) in[i] = float_of(inputs[i]);
  void *args[] = {out.data(), in.data()};
  codegen::compile_for_host_raw(k, target)(args);
  std::vector<std::uint32_t> bits;
  for (float f : out) bits.push_back(bits_of(f));
  return bits;
}

// The interpreter's round trip of the same values (its inputs are doubles: a float NaN's payload
// is not kept).
std::vector<double> interpret_round_trip(DType t, const std::vector<std::uint32_t> &inputs) {
  const UOp k = round_trip_kernel(t, static_cast<std::int64_t>(inputs.size()));
  std::vector<HostBuffer> b{{dtypes::float32, std::vector<double>(inputs.size())},
                            {dtypes::float32, {}}};
  for (std::uint32_t v : inputs) b[1].data.push_back(float_of(v));
  interpret(k, b);
  return b[0].data;
}

struct Case {
  std::uint32_t in, want;  // float bits
  const char *what;
};

void check_round_trip(DType t, const std::vector<Case> &cases) {
  std::vector<std::uint32_t> inputs;
  for (const auto &c : cases) inputs.push_back(c.in);
  const auto interpreted = interpret_round_trip(t, inputs);
  for (const std::string target : {"c", "cpu"}) {
    const auto got = run_round_trip(t, inputs, target);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      INFO(target << " " << to_string(t) << " " << cases[i].what
                  << fmt::format(" 0x{:08x}", cases[i].in));
      const float g = float_of(got[i]), want = float_of(cases[i].want);
      if (std::isnan(want)) {
        CHECK(std::isnan(g));
        CHECK(std::isnan(interpreted[i]));
        continue;
      }
      CHECK(fmt::format("0x{:08x}", got[i]) == fmt::format("0x{:08x}", cases[i].want));
      CHECK(bits_of(static_cast<float>(interpreted[i])) == cases[i].want);
    }
  }
}

}  // namespace

TEST_CASE("16-bit floats: tinygrad's half and bfloat16 kernels run on c and cpu as the "
          "interpreter does, and compile for every GPU",
          "[compiler][kernel][float16]") {
  const auto ks = fixtures();
  REQUIRE(ks.size() == 14);
  std::size_t runs = 0, objects = 0, elements = 0, with_16bit_buffers = 0;
  for (const auto &[file, ast] : ks) {
    bool buffers16 = false;
    for (const auto &p : kernel_params(ast)) {
      buffers16 |= p.dtype == dtypes::half || p.dtype == dtypes::bfloat16;
      if (p.written) elements += static_cast<std::size_t>(p.size);
    }
    with_16bit_buffers += buffers16;
    for (const auto &choice : {opt::OptChoice::none(), opt::OptChoice::heuristic()}) {
      const UOp k = opt::with_opt_choice(ast, choice);
      for (const std::string target : {"c", "cpu"})
        for (std::uint64_t seed : {1u, 7u}) {
          INFO(file << " " << target << " seed " << seed);
          const auto c = check_with_interpreter(k, seed, codegen::compile_for_host(k, target));
          CHECK(c.ok);
          // every 16-bit rounding where the interpreter has it: within one half ulp at most
          CHECK(c.max_rel_err <= std::ldexp(1.0, -10));
          ++runs;
        }
      for (const auto &gpu : codegen::amdgpu_targets()) {
        INFO(file << " " << gpu);
        const auto compiled = codegen::compile_amdgpu(k, gpu);
        CHECK(compiled.code_object.size() > 256);
        ++objects;
      }
    }
  }
  CHECK(runs == 14 * 2 * 2 * 2);
  CHECK(objects == 14 * 2 * 3);
  CHECK(with_16bit_buffers == 11);
  CHECK(elements == 64 + 1 + 1 + 64 + 64 + 64 + 1 + 7 * 32);
}

TEST_CASE("16-bit floats: no bfloat16 arithmetic or cast reaches a renderer, half stays native",
          "[compiler][kernel][float16]") {
  std::size_t bf16_alus = 0, half_alus = 0, lowered = 0;
  for (const auto &[file, ast] : fixtures()) {
    for (const auto &target : lower::render_target_names()) {
      INFO(file << " " << target);
      const auto k = lower::lower(ast, lower::render_target(target));
      for (const UOp &u : k.program) {
        const bool alu = ops::kAlu.contains(u.op()) || u.op() == Op::CAST;
        for (const UOp &s : u.src())
          if (alu && s.dtype().scalar == ScalarType::BFloat16) ++bf16_alus;
        if (alu && u.dtype().scalar == ScalarType::BFloat16) ++bf16_alus;
        if (ops::kAlu.contains(u.op()) && u.dtype() == dtypes::half) ++half_alus;
      }
      ++lowered;
    }
  }
  CHECK(lowered == 14 * 5);
  CHECK(bf16_alus == 0);
  CHECK(half_alus > 0);  // half_exp2's multiply, add and exp2 on every target
}

TEST_CASE("16-bit floats: the emulation is a named rule set in the final rewrite's trace",
          "[compiler][kernel][float16]") {
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    rewrite::TraceGroup group("bf16");
    for (const auto &[file, ast] : fixtures())
      if (file == "bf16_mul_sum.json") lower::lower(ast, lower::render_target("cpu"));
  }
  REQUIRE(trace.groups().size() == 1);
  std::vector<std::string> rules;
  for (const auto &rw : trace.groups()[0].rewrites)
    if (rw.name == "final rewrite")
      for (const auto &s : rw.steps)
        if (s.rule.rfind("emulate non-native floats: ", 0) == 0) {
          rules.push_back(s.rule);
          CHECK_THAT(s.rule_loc, StartsWith("float_emulation.cpp:"));
        }
  // bf16(x * 3) in float: the multiply (4 of them: tinygrad's opts for r_16_4 unroll by 4), the
  // operand's cast from float by its bits, the result's cast back
  CHECK(std::count(rules.begin(), rules.end(),
                   "emulate non-native floats: ALU of bf16 -> in float, cast back") == 4);
  CHECK(std::count(rules.begin(), rules.end(),
                   "emulate non-native floats: CAST(bf16, float x) -> upper half rounded to "
                   "nearest even") >= 1);
  CHECK(std::count(rules.begin(), rules.end(),
                   "emulate non-native floats: CAST(float, bf16 x) -> bits of x << 16") >= 1);
}

TEST_CASE("16-bit floats: float -> bfloat16 -> float rounds to nearest even and keeps NaN, "
          "infinity and denormals, on c and cpu as in the interpreter",
          "[compiler][kernel][float16]") {
  check_round_trip(dtypes::bfloat16,
                   {
                       {0x3f808000, 0x3f800000, "tie, down to even"},
                       {0x3f818000, 0x3f820000, "tie, up to even"},
                       {0x3f808001, 0x3f810000, "just above a tie"},
                       {0x3f807fff, 0x3f800000, "just below a tie"},
                       {0xbf818000, 0xbf820000, "negative tie"},
                       {0x7f7fffff, 0x7f800000, "largest float: overflows to infinity"},
                       {0x7f800000, 0x7f800000, "infinity"},
                       {0xff800000, 0xff800000, "-infinity"},
                       {0x7fc00000, 0x7fc00000, "quiet NaN"},
                       {0x7f800001, 0x7fc00000, "NaN with its payload in the low half"},
                       {0x00000001, 0x00000000, "smallest float denormal"},
                       {0x00008000, 0x00000000, "denormal tie, down to even"},
                       {0x00018000, 0x00020000, "denormal tie, up to even"},
                       {0x00010000, 0x00010000, "smallest bfloat16 denormal"},
                       {0x807fffff, 0x80800000, "largest denormal rounds to the smallest normal"},
                       {0x80000000, 0x80000000, "-0"},
                   });
}

TEST_CASE("16-bit floats: float -> half -> float rounds to nearest even, overflows to infinity "
          "and keeps denormals, on c and cpu as in the interpreter",
          "[compiler][kernel][float16]") {
  check_round_trip(dtypes::half, {
                                     {0x3f801000, 0x3f800000, "1 + 2^-11: tie, down to even"},
                                     {0x3f803000, 0x3f804000, "1 + 3*2^-11: tie, up to even"},
                                     {0x477fe000, 0x477fe000, "65504, the largest half"},
                                     {0x477fefff, 0x477fe000, "just below 65520"},
                                     {0x477ff000, 0x7f800000, "65520: overflows to infinity"},
                                     {0x33800000, 0x33800000, "2^-24, the smallest half denormal"},
                                     {0x33000000, 0x00000000, "2^-25: tie, down to zero"},
                                     {0x33c00000, 0x34000000, "3*2^-25: tie, up to 2^-23"},
                                     {0x33000001, 0x33800000, "just above 2^-25"},
                                     {0xff800000, 0xff800000, "-infinity"},
                                     {0x7fc00000, 0x7fc00000, "NaN"},
                                     {0x80000000, 0x80000000, "-0"},
                                 });
}

TEST_CASE("16-bit floats: half and bfloat16 host buffers are their 16 bits, little-endian",
          "[compiler][kernel][float16]") {
  const double nan = std::nan("");
  const std::vector<double> values{1.0, -2.0, 65504.0, std::ldexp(1.0, -24), INFINITY, nan, 0.1};
  const std::vector<std::uint16_t> half_bits{0x3c00, 0xc000, 0x7bff, 0x0001,
                                             0x7c00, 0x7e00, 0x2e66};
  const std::vector<std::uint16_t> bf16_bits{0x3f80, 0xc000, 0x4780, 0x3380,
                                             0x7f80, 0x7fc0, 0x3dcd};
  for (const auto &[t, want] :
       {std::pair{dtypes::half, half_bits}, std::pair{dtypes::bfloat16, bf16_bits}}) {
    INFO(to_string(t));
    for (std::size_t i = 0; i < values.size(); ++i) {
      CHECK(float16_bits(values[i], t) == want[i]);
      const double back = float16_value(want[i], t);
      if (std::isnan(values[i]))
        CHECK(std::isnan(back));
      else
        CHECK(back == round_to_float(values[i], t));
    }
    std::vector<KernelParam> params{{0, t, 7, "out", true, {}}, {1, t, 7, "in", false, {}}};
    std::vector<HostBuffer> buffers{{t, values}, {t, values}};
    auto packed = render::pack_buffers(params, buffers);
    REQUIRE(packed.bytes[1].size() == 14);
    for (std::size_t i = 0; i < values.size(); ++i) {
      INFO(i);
      CHECK(packed.bytes[1][2 * i] == (want[i] & 0xff));
      CHECK(packed.bytes[1][2 * i + 1] == (want[i] >> 8));
    }
    // what a kernel writes reads back as the values of those bits
    std::fill(buffers[0].data.begin(), buffers[0].data.end(), 0.0);
    render::unpack_written(params, packed, buffers);
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (std::isnan(values[i]))
        CHECK(std::isnan(buffers[0].data[i]));
      else
        CHECK(buffers[0].data[i] == round_to_float(values[i], t));
    }
  }
}

TEST_CASE("16-bit floats: run --check's tolerance is 8 ulps of the narrowest float computed in",
          "[compiler][kernel][float16]") {
  for (const auto &[file, ast] : fixtures()) {
    INFO(file);
    const auto t = tolerance_for(ast);
    bool bf16 = false;  // half_max.json casts through bfloat16 too
    for (const UOp &u : toposort(ast)) bf16 |= u.dtype() == dtypes::bfloat16;
    CHECK(t.rtol == (bf16 ? 8 * std::ldexp(1.0, -7) : 8 * std::ldexp(1.0, -10)));
    CHECK(t.atol == t.rtol);
  }
  KernelBuilder k("float");
  auto out = k.buffer(dtypes::float32, 4), in = k.buffer(dtypes::float32, 4);
  auto i = k.range(4);
  k.store(out, i, k.read(in, i) * k.f(2.0), {i});
  const auto t = tolerance_for(k.finish());
  CHECK(t.atol == kDefaultAtol);
  CHECK(t.rtol == kDefaultRtol);
}

TEST_CASE("16-bit floats: a bitcast of half or bfloat16 to uint16 gives the same bits on c, cpu "
          "and in the interpreter",
          "[compiler][kernel][float16]") {
  const std::vector<double> values{1.0,      -2.0, 65504.0, std::ldexp(1.0, -24), 0.1, 1e-40,
                                   INFINITY, -0.0, 3.14159};
  const auto n = static_cast<std::int64_t>(values.size());
  for (const DType t : {dtypes::half, dtypes::bfloat16}) {
    KernelBuilder k(fmt::format("bits_of_{}", to_string(t)));
    auto out = k.buffer(dtypes::uint16, n), in = k.buffer(dtypes::float32, n);
    auto i = k.range(n);
    const UOp x = cast(k.read(in, i), t);
    k.store(out, i, UOp::make(Op::BITCAST, dtypes::uint16, {x}, dtypes::uint16), {i});
    const UOp ast = k.finish();
    std::vector<HostBuffer> want{{dtypes::uint16, std::vector<double>(values.size())},
                                 {dtypes::float32, {}}};
    for (double v : values) want[1].data.push_back(static_cast<float>(v));
    interpret(ast, want);
    for (std::size_t e = 0; e < values.size(); ++e) {
      INFO(to_string(t) << " " << values[e]);
      CHECK(want[0].data[e] == float16_bits(static_cast<double>(static_cast<float>(values[e])), t));
    }
    for (const std::string target : {"c", "cpu"}) {
      INFO(to_string(t) << " " << target);
      auto got = want;
      std::fill(got[0].data.begin(), got[0].data.end(), 0.0);
      codegen::compile_for_host(ast, target)(got);
      CHECK(got[0].data == want[0].data);
    }
  }
}

TEST_CASE("16-bit floats: the C target's half and bfloat16 kernels compile with gcc too",
          "[compiler][kernel][float16][c]") {
  if (std::system("gcc --version > /dev/null 2>&1") != 0) {
    WARN("no gcc on PATH");
    return;
  }
  const char *set = std::getenv("CC");
  const std::string saved = set ? set : "";
  ::setenv("CC", "gcc", 1);
  std::size_t runs = 0;
  for (const auto &[file, ast] : fixtures())
    for (const auto &choice : {opt::OptChoice::none(), opt::OptChoice::heuristic()}) {
      INFO(file);
      const UOp k = opt::with_opt_choice(ast, choice);
      const auto c = check_with_interpreter(k, 3, codegen::compile_for_host(k, "c"));
      CHECK(c.ok);
      CHECK(c.max_rel_err <= std::ldexp(1.0, -10));
      ++runs;
    }
  if (set)
    ::setenv("CC", saved.c_str(), 1);
  else
    ::unsetenv("CC");
  CHECK(runs == 14 * 2);
}

TEST_CASE("16-bit floats: the lowering runs the emulation rules only for a kernel that needs them",
          "[compiler][kernel][float16]") {
  std::size_t needing = 0;
  for (const auto &[file, ast] : fixtures()) {
    INFO(file);
    bool needs = false;
    for (const UOp &u : toposort(ast))
      needs |= u.dtype() == dtypes::bfloat16 || (u.op() == Op::CAST && u.dtype() == dtypes::half &&
                                                 u.src(0).dtype() == dtypes::float64);
    CHECK(lower::needs_float_emulation(ast) == needs);
    needing += needs;
  }
  // all but half_exp2, half_matmul_sum, cast_int64_half and cast_half_uint64 (half_max casts
  // through bfloat16, cast_double_half a double to half)
  CHECK(needing == 10);
  // a double cast to half goes through float (a libcall on x86 otherwise)
  KernelBuilder k("double_to_half");
  auto out = k.buffer(dtypes::half, 4), in = k.buffer(dtypes::float64, 4);
  auto i = k.range(4);
  k.store(out, i, cast(k.read(in, i), dtypes::half), {i});
  const UOp ast = opt::with_opt_choice(k.finish(), opt::OptChoice::none());
  CHECK(lower::needs_float_emulation(ast));
  const auto lowered = lower::lower(ast, lower::render_target("cpu"));
  std::size_t via_float = 0;
  for (const UOp &u : lowered.program)
    if (u.op() == Op::CAST && u.dtype() == dtypes::half) {
      CHECK(u.src(0).dtype() == dtypes::float32);
      ++via_float;
    }
  CHECK(via_float == 1);
  for (const std::string target : {"c", "cpu"}) {
    INFO(target);
    const auto c = check_with_interpreter(ast, 5, codegen::compile_for_host(ast, target));
    CHECK(c.ok);
  }
}
