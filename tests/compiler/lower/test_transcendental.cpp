// The transcendental decompositions (late decompositions, lower/transcendental.cpp): float64
// EXP2, LOG2 and SIN expanded for a target that lacks them (and POW, which the early
// decompositions turn into EXP2 and LOG2 for AMDGPU). Accuracy is measured by forcing
// the decomposition on the host LLVM target (a copy of "cpu" that lacks the ops for float64),
// running the JIT over sweeps of inputs and comparing, in ulps, with the interpreter on the
// original kernel (the oracle: libm). The AMDGPU targets decompose them and compile.

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/cpu_jit.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using Catch::Matchers::Contains;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kMin = std::numeric_limits<double>::denorm_min();

// Sweeps have this many times their default sizes (WAVESCOPE_TRANSCENDENTAL_SCALE, default 1;
// docs/compiler.md's figures are from 100).
int sweep_scale() {
  const char *v = std::getenv("WAVESCOPE_TRANSCENDENTAL_SCALE");
  const int n = v ? std::atoi(v) : 1;
  return n > 0 ? n : 1;
}

// out[i] = op(a[i]) (or op(a[i], b[i])) over n float64 values.
UOp kernel_of(Op op, std::size_t n) {
  KernelBuilder k(std::string("f64_") + std::string(to_string(op)));
  const auto size = static_cast<std::int64_t>(n);
  const UOp out = k.buffer(dtypes::float64, size), a = k.buffer(dtypes::float64, size);
  const UOp b = op == Op::POW ? k.buffer(dtypes::float64, size) : UOp{};
  const UOp i = k.range(size);
  std::vector<UOp> src{k.read(a, i)};
  if (b) src.push_back(k.read(b, i));
  k.store(out, i, UOp::make(op, dtypes::float64, std::move(src)), {i});
  return k.finish();
}

// "cpu" lacking the float64 transcendentals and POW, as the AMDGPU targets do.
lower::RenderTarget decomposing_cpu() {
  const lower::RenderTarget &gpu = lower::render_target("gfx1100");
  lower::RenderTarget t = lower::render_target("cpu");
  t.float64_lacks = gpu.float64_lacks;
  if (!gpu.supports(Op::POW)) t.ops = t.ops - OpSet{Op::POW};
  return t;
}

// Distance in ulps; +0 and -0 are one point, NaN is only near NaN.
double ulps(double got, double want) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want) ? 0 : std::numeric_limits<double>::infinity();
  auto key = [](double x) {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? -static_cast<Int>(i & std::numeric_limits<std::int64_t>::max()) : Int(i);
  };
  const Int d = key(got) - key(want);
  return static_cast<double>(d < 0 ? -d : d);
}

struct Measured {
  double max_ulps = 0;
  double worst_input = 0, worst_input_b = 0;
  std::size_t values = 0, sign_mismatches = 0;
  std::string ir;
};

// The decomposed kernel (JIT) against the interpreter (libm) on these inputs.
Measured measure(Op op, const std::vector<double> &a, const std::vector<double> &b = {}) {
  const UOp ast = kernel_of(op, a.size());
  const auto lowered = lower::lower(ast, decomposing_cpu());
  Measured m;
  m.ir = render::render_llvm_ir(lowered);
  const auto compiled = codegen::CpuKernel::compile(m.ir, lowered.buffers, lowered.scalars);
  std::vector<HostBuffer> want{{dtypes::float64, std::vector<double>(a.size())},
                               {dtypes::float64, a}};
  if (!b.empty()) want.push_back({dtypes::float64, b});
  std::vector<HostBuffer> got = want;
  interpret(ast, want);
  compiled.run(got);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double g = got[0].data[i], w = want[0].data[i];
    const double u = ulps(g, w);
    if (u > m.max_ulps) {
      m.max_ulps = u;
      m.worst_input = a[i];
      m.worst_input_b = b.empty() ? 0 : b[i];
    }
    if (g == 0 && w == 0 && std::signbit(g) != std::signbit(w)) ++m.sign_mismatches;
    ++m.values;
  }
  return m;
}

void add_specials(std::vector<double> &v) {
  for (double x : {0.0, -0.0, kInf, -kInf, kNan, kMin, -kMin, 1e-310, -1e-310, 1e-300, -1e-300,
                   1e300, -1e300, std::numeric_limits<double>::max(),
                   -std::numeric_limits<double>::max(), std::numeric_limits<double>::min()})
    v.push_back(x);
}

void add_uniform(std::vector<double> &v, std::mt19937_64 &rng, double lo, double hi, int n) {
  std::uniform_real_distribution<double> d(lo, hi);
  for (int i = 0; i < n * sweep_scale(); ++i) v.push_back(d(rng));
}

// |x| log-uniform in [2^lo, 2^hi], both signs.
void add_log_uniform(std::vector<double> &v, std::mt19937_64 &rng, double lo, double hi, int n) {
  std::uniform_real_distribution<double> d(lo, hi);
  for (int i = 0; i < n * sweep_scale(); ++i) v.push_back((i % 2 ? -1 : 1) * std::exp2(d(rng)));
}

void report(const char *what, const Measured &m) {
  WARN(what << ": " << m.values << " values, max " << m.max_ulps << " ulp (at " << m.worst_input
            << (m.worst_input_b != 0 ? " ** " : "")
            << (m.worst_input_b != 0 ? std::to_string(m.worst_input_b) : std::string()) << ")");
}

}  // namespace

TEST_CASE("transcendental: float64 exp2 decomposed is within 1 ulp of libm",
          "[compiler][lower][transcendental]") {
  std::mt19937_64 rng(14);
  std::vector<double> in;
  add_specials(in);
  for (int k = -1080; k <= 1030; ++k) in.push_back(k);  // exact powers of two, under/overflow
  for (double x : {1023.999, 1024.0, -1022.5, -1074.0, -1074.5, -1075.0, -1076.0, 0.5, -0.5})
    in.push_back(x);
  add_uniform(in, rng, -1, 1, 4000);
  add_uniform(in, rng, -1100, 1100, 4000);
  add_log_uniform(in, rng, -1074, -1, 2000);  // tiny
  std::vector<double> powers;
  for (int k = -1074; k <= 1023; ++k) powers.push_back(k);
  CHECK(measure(Op::EXP2, powers).max_ulps == 0);  // 2^k exactly, subnormal ones too
  const auto m = measure(Op::EXP2, in);
  report("exp2", m);
  CHECK_THAT(m.ir, !Contains("llvm.exp2.f64"));
  CHECK(m.values == in.size());
  CHECK(m.values > 12000);
  CHECK(m.max_ulps <= 1);
  CHECK(m.sign_mismatches == 0);
}

TEST_CASE("transcendental: float64 log2 decomposed is within 3 ulps of libm",
          "[compiler][lower][transcendental]") {
  std::mt19937_64 rng(14);
  std::vector<double> in;
  add_specials(in);
  for (int k = -1074; k <= 1023; ++k) in.push_back(std::ldexp(1.0, k));  // exact powers of two
  for (double x : {1.0, 0.75, 1.5, 0.7499999999999999, 1.0000000000000002, 0.9999999999999999})
    in.push_back(x);
  add_uniform(in, rng, 0, 4, 4000);
  add_uniform(in, rng, -4, 0, 200);  // NaN
  add_log_uniform(in, rng, -1074, 1024, 6000);
  std::vector<double> powers;
  for (int k = -1074; k <= 1023; ++k) powers.push_back(std::ldexp(1.0, k));
  CHECK(measure(Op::LOG2, powers).max_ulps == 0);  // k exactly
  const auto m = measure(Op::LOG2, in);
  report("log2", m);
  CHECK_THAT(m.ir, !Contains("llvm.log2.f64"));
  CHECK(m.values == in.size());
  CHECK(m.values > 12000);
  CHECK(m.max_ulps <= 3);
  CHECK(m.sign_mismatches == 0);
}

TEST_CASE("transcendental: float64 sin decomposed is within 2 ulps of libm, huge arguments too",
          "[compiler][lower][transcendental]") {
  std::mt19937_64 rng(14);
  std::vector<double> small, large, huge;
  add_specials(small);
  for (int k = -1000; k <= 1000; ++k) small.push_back(k * M_PI);  // multiples of pi
  for (int k = 1; k <= 1000; ++k) small.push_back(k * M_PI_2);
  add_uniform(small, rng, -10, 10, 4000);
  add_log_uniform(small, rng, -1074, 0, 1000);
  add_log_uniform(small, rng, 0, std::log2(1e6), 1000);
  // 1e6..1e15: Cody-Waite below 1e14, Payne-Hanek above
  for (double k = 1e6; k < 1e16; k *= 10) large.push_back(std::round(k / M_PI) * M_PI);
  add_log_uniform(large, rng, std::log2(1e6), std::log2(1e15), 4000);
  // beyond, to the largest double
  add_log_uniform(huge, rng, std::log2(1e15), 1024, 2000);
  for (int k = 20; k < 1024; ++k) huge.push_back(std::ldexp(1.0, k));
  huge.push_back(std::ldexp(6381956970095103.0, 797));  // the double nearest a multiple of pi/2
  std::size_t values = 0;
  for (const auto *in : {&small, &large, &huge}) {
    const auto m = measure(Op::SIN, *in);
    report(in == &small ? "sin below 1e6" : in == &large ? "sin 1e6..1e15" : "sin above 1e15", m);
    CHECK_THAT(m.ir, !Contains("llvm.sin.f64"));
    CHECK(m.values == in->size());
    CHECK(m.max_ulps <= 2);
    CHECK(m.sign_mismatches == 0);
    values += m.values;
  }
  CHECK(values > 15000);
}

TEST_CASE("transcendental: float64 pow through the decomposed exp2 and log2 is within 40 ulps",
          "[compiler][lower][transcendental]") {
  std::mt19937_64 rng(14);
  std::vector<double> base, expo;
  auto both = [&](double b, double e) {
    base.push_back(b);
    expo.push_back(e);
  };
  std::uniform_real_distribution<double> b01(0, 4), e10(-10, 10);
  for (int i = 0; i < 4000; ++i) both(b01(rng), e10(rng));
  for (int i = 0; i < 1000; ++i) both(-b01(rng), std::round(e10(rng)));  // integer exponents
  // C's special cases, but for 1**inf, 1**NaN, (-1)**inf (C: 1; here NaN) and -0 to an odd
  // power (C: -0 or -inf; here +0 or +inf): the early decomposition's choices
  for (double b : {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, kInf, -kInf, kNan})
    for (double e : {0.0, -0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, kInf, -kInf, kNan}) {
      if (std::fabs(b) == 1 && (std::isinf(e) || std::isnan(e))) continue;
      if (b == 0 && std::signbit(b) && std::fmod(std::fabs(e), 2) == 1) continue;
      both(b, e);
    }
  const auto m = measure(Op::POW, base, expo);
  report("pow", m);
  CHECK_THAT(m.ir, !Contains("llvm.pow.f64"));
  CHECK(m.values == base.size());
  CHECK(m.max_ulps <= 40);  // grows with |y*log2(x)|: 40 ulps at 2^-45
}

TEST_CASE("transcendental: float32 and the host targets keep their native ops",
          "[compiler][lower][transcendental]") {
  // float32 on a GPU: LLVM's own intrinsics
  KernelBuilder k("f32_exp2");
  const UOp out = k.buffer(dtypes::float32, 8), a = k.buffer(dtypes::float32, 8);
  const UOp i = k.range(8);
  k.store(out, i, UOp::make(Op::EXP2, dtypes::float32, {k.read(a, i)}), {i});
  const auto gpu = codegen::render_amdgpu(k.finish(), "gfx1100");
  CHECK_THAT(gpu.llvm_ir, Contains("llvm.exp2.f32"));
  // float64 on the CPU: libm's
  for (Op op : {Op::EXP2, Op::LOG2, Op::SIN}) {
    const auto ir =
        render::render_llvm_ir(lower::lower(kernel_of(op, 8), lower::render_target("cpu")));
    CHECK_THAT(ir, Contains(std::string("llvm.") +
                            (op == Op::EXP2   ? "exp2"
                             : op == Op::LOG2 ? "log2"
                                              : "sin") +
                            ".f64"));
  }
  CHECK(lower::render_target("gfx950").supports(Op::SQRT, dtypes::float64));
  CHECK_FALSE(lower::render_target("gfx950").supports(Op::SIN, dtypes::float64));
  CHECK(lower::render_target("gfx950").supports(Op::SIN, dtypes::float32));
  CHECK(lower::render_target("cpu").supports(Op::SIN, dtypes::float64));
}

TEST_CASE("transcendental: float64 exp2, log2, sin, pow and sqrt compile for the three GPUs",
          "[compiler][lower][transcendental][amdgpu]") {
  std::size_t objects = 0;
  for (Op op : {Op::EXP2, Op::LOG2, Op::SIN, Op::POW, Op::SQRT})
    for (const auto &gpu : codegen::amdgpu_targets()) {
      INFO(to_string(op) << " " << gpu);
      const auto k = codegen::compile_amdgpu(kernel_of(op, 64), gpu);
      const auto code = isa::CodeObject::from_bytes(k.code_object, {}, k.name);
      REQUIRE(code.kernels().size() == 1);
      CHECK(code.target().processor == gpu);
      CHECK(isa::disassemble_kernel(code, code.kernels()[0]).size() > 20);
      ++objects;
    }
  CHECK(objects == 15);
}

TEST_CASE("transcendental: the rules are named in the rewrite trace",
          "[compiler][lower][transcendental]") {
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    rewrite::TraceGroup group("f64");
    lower::lower(kernel_of(Op::POW, 8), lower::render_target("gfx1201"));
  }
  std::size_t exp2 = 0, log2 = 0;
  for (const auto &rw : trace.groups().at(0).rewrites)
    for (const auto &s : rw.steps) {
      if (s.rule_loc.find("transcendental.cpp:") == std::string::npos) continue;
      CHECK(rw.name == "late decompositions");
      exp2 += s.rule.find("EXP2(x)") != std::string::npos;
      log2 += s.rule.find("LOG2(x)") != std::string::npos;
    }
  CHECK(exp2 >= 1);  // one per lane the optimizer made, from POW's decomposition
  CHECK(log2 == exp2);
}
