// Kernel compile time and host-kernel GFLOP/s, each against tinygrad measured in the same run.
//
//  * BM_CompileC/<workload>/<i>:<kernel>: tinygrad's own kernel ASTs (the "View Base AST" input of
//    each kernel context of ../shared/data/tinygrad-viz/<workload>/rewrites.pkl, read with
//    kernel::tinygrad_kernels) lowered and rendered as C source (render_c(lower_for_c(ast)); the
//    C compiler is not run), in this thread's CPU time (the machine is shared).
//  * BM_CompileLlvm/...: the same ASTs to gfx1100 LLVM IR text (codegen::render_amdgpu: every
//    lowering pass, the linearizer and the LLVM IR renderer; LLVM itself is not run), in this
//    thread's CPU time: the like-for-like figure against tinygrad's AST -> AMDGPU LLVM IR
//    (full_rewrite_to_sink, linearize, AMDLLVMRenderer), as neither side runs LLVM there.
//    Before every iteration the rewrite engine forgets the fixed points it memoized
//    (rewrite::forget_fixed_points), so each one is a first lowering of the AST, not a
//    repeat that finds its simplified subgraphs marked.
//  * BM_CompileElf/...: the same ASTs to a gfx1100 code object (codegen::compile_amdgpu: lowering,
//    LLVM IR, LLVM's AMDGPU back end in process, lld in process, or ld.lld as a child process in
//    a build without liblld-22-dev), in process CPU time including the waited-for children.
//    When TINYGRAD names a tinygrad checkout, tinygrad_compile_baseline.py (beside this file)
//    lowers the same ASTs with tinygrad's codegen in this run, and "x_tinygrad" is tinygrad's
//    median seconds over ours: for C against its AST -> C source (ClangRenderer), for the code
//    object against its AST -> gfx1100 code object (AMDLLVMRenderer + AMDLLVMCompiler).
//  * BM_HostGflops/<kernel>/<target>: matmul 512^2, softmax (256, 1024) and conv2d (1, 32, 64, 64)
//    * (32, 32, 3, 3) pad 1, built with the front end, optimized by the default heuristic,
//    compiled for the host target "c" or "cpu" (codegen::compile_for_host_raw, not timed) and run
//    on float32 buffers made once; GFLOP/s over the wall time of one call of the kernels, and
//    cpu_GFLOP/s over the process CPU time of the same calls (the fairer figure on a shared
//    machine). With TINYGRAD set, tinygrad_cpu_baseline.py times tinygrad's CPU device on the
//    same shapes both ways; "x_tinygrad" is our GFLOP/s over its, "x_tinygrad_cpu" the same on
//    CPU time. Flops are counted the same way on both
//    sides: 2*M*N*K, 5*M*N (max, subtract, exp, sum, divide per element), 2*O*H*W*C*KH*KW.
//    Softmax is three kernels here as in tinygrad (max, sum of exp, divide); its figure is their
//    sum.
// Without TINYGRAD there is no x_tinygrad counter (said once on stderr).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cpu_time.hpp"
#include "peer_script.hpp"
#include "testdata.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

using namespace wavescope::compiler;

namespace {

const std::vector<std::string> kWorkloads{"matmul_relu_sum", "elementwise", "softmax"};

std::filesystem::path workload_pickle(const std::string &workload) {
  return wavescope::testing::testdata_root() / "tinygrad-viz" / workload / "rewrites.pkl";
}

using wavescope::bench::shell_quote;

bool tinygrad_set() {
  static const bool set = [] {
    const char *checkout = std::getenv("TINYGRAD");
    if (checkout && *checkout) return true;
    fmt::print(stderr, "TINYGRAD is not set: no x_tinygrad (set TINYGRAD=<tinygrad checkout> to "
                       "measure tinygrad's lowering and CPU backend in this run)\n");
    return false;
  }();
  return set;
}

// tinygrad's median seconds per kernel, keyed "<workload>/<index>": {"c_s", "llvm_s", "elf_s"}.
const std::optional<nlohmann::json> &tinygrad_compile() {
  static const std::optional<nlohmann::json> figures = []() -> std::optional<nlohmann::json> {
    if (!tinygrad_set()) return std::nullopt;
    const auto script =
        (wavescope::testing::source_root() / "tests/bench/tinygrad_compile_baseline.py").string();
    std::string command = "python3 " + shell_quote(script);
    for (const auto &w : kWorkloads) command += " " + shell_quote(workload_pickle(w).string());
    // tinygrad loads the first libLLVM it finds; Debian's LLVM 14 rejects its AMDGPU IR.
    const char *llvm = std::getenv("LLVM_PATH");
    if ((!llvm || !*llvm) && std::filesystem::exists(WAVESCOPE_BENCH_LIBLLVM))
      command = "LLVM_PATH=" + shell_quote(WAVESCOPE_BENCH_LIBLLVM) + " " + command;
    fmt::print(stderr, "measuring tinygrad's lowering: {}\n", command);
    auto json = wavescope::bench::run_peer_script("tinygrad_compile_baseline.py", command);
    if (!json) return std::nullopt;
    nlohmann::json by_kernel = nlohmann::json::object();
    for (const auto &k : json->at("kernels")) {
      const auto file = std::filesystem::path(k.at("file").get<std::string>());
      const auto key =
          fmt::format("{}/{}", file.parent_path().filename().string(), k.at("index").get<int>());
      by_kernel[key] = k;
    }
    return by_kernel;
  }();
  return figures;
}

const std::optional<nlohmann::json> &tinygrad_cpu() {
  static const std::optional<nlohmann::json> figures = []() -> std::optional<nlohmann::json> {
    if (!tinygrad_set()) return std::nullopt;
    const auto script =
        (wavescope::testing::source_root() / "tests/bench/tinygrad_cpu_baseline.py").string();
    const std::string command = "python3 " + shell_quote(script);
    fmt::print(stderr, "measuring tinygrad's CPU backend: {}\n", command);
    auto json = wavescope::bench::run_peer_script("tinygrad_cpu_baseline.py", command);
    if (!json) return std::nullopt;
    return json->at("kernels");
  }();
  return figures;
}

double process_cpu_seconds_with_children() {
  rusage self{}, children{};
  ::getrusage(RUSAGE_SELF, &self);
  ::getrusage(RUSAGE_CHILDREN, &children);
  const auto sec = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return sec(self.ru_utime) + sec(self.ru_stime) + sec(children.ru_utime) + sec(children.ru_stime);
}

void report_compile(benchmark::State &state, const std::string &key, const char *field,
                    double ours) {
  state.counters["ms"] = ours * 1e3;
  const auto &tg = tinygrad_compile();
  if (!tg || !tg->contains(key) || !(*tg)[key].contains(field)) return;
  const double theirs = (*tg)[key][field].get<double>();
  state.counters["tinygrad_ms"] = theirs * 1e3;
  state.counters["x_tinygrad"] = theirs / ours;
}

void BM_CompileC(benchmark::State &state, UOp ast, std::string key) {
  double total = 0;
  for (auto _ : state) {
    rewrite::forget_fixed_points();  // each iteration a first lowering (see the header)
    const double t0 = wavescope::bench::thread_cpu_seconds();
    auto source = render::render_c(render::lower_for_c(ast));
    benchmark::DoNotOptimize(source.data());
    const double dt = wavescope::bench::thread_cpu_seconds() - t0;
    state.SetIterationTime(dt);
    total += dt;
  }
  report_compile(state, key, "c_s", total / double(state.iterations()));
}

void BM_CompileLlvm(benchmark::State &state, UOp ast, std::string key) {
  double total = 0;
  for (auto _ : state) {
    rewrite::forget_fixed_points();
    const double t0 = wavescope::bench::thread_cpu_seconds();
    auto k = codegen::render_amdgpu(ast, "gfx1100");
    benchmark::DoNotOptimize(k.llvm_ir.data());
    const double dt = wavescope::bench::thread_cpu_seconds() - t0;
    state.SetIterationTime(dt);
    total += dt;
  }
  report_compile(state, key, "llvm_s", total / double(state.iterations()));
}

void BM_CompileElf(benchmark::State &state, UOp ast, std::string key) {
  double total = 0, own = 0;
  for (auto _ : state) {
    rewrite::forget_fixed_points();
    const double t0 = process_cpu_seconds_with_children();
    const double own0 = wavescope::bench::thread_cpu_seconds();
    auto k = codegen::compile_amdgpu(ast, "gfx1100");
    benchmark::DoNotOptimize(k.code_object.data());
    own += wavescope::bench::thread_cpu_seconds() - own0;
    const double dt = process_cpu_seconds_with_children() - t0;
    state.SetIterationTime(dt);
    total += dt;
  }
  // in_process_ms: this thread alone (with lld when it links in process, else without ld.lld).
  state.counters["in_process_ms"] = own / double(state.iterations()) * 1e3;
  report_compile(state, key, "elf_s", total / double(state.iterations()));
}

// ---- host kernels --------------------------------------------------------------------------

constexpr DType f32 = dtypes::float32;
using kernel::KernelBuilder;
using kernel::View;

std::vector<UOp> matmul_kernels() {
  const std::int64_t M = 512, N = 512, K = 512;
  KernelBuilder k("r_512_512_512");
  auto c = k.buffer(f32, M * N), a = k.buffer(f32, M * K), b = k.buffer(f32, K * N);
  auto i = k.range(M), j = k.range(N), r = k.range(K, AxisType::Reduce);
  const View va = View::contiguous({M, 1, K}).expand({M, N, K});
  const View vb = View::contiguous({1, K, N}).permute({0, 2, 1}).expand({M, N, K});
  auto prod = k.read(a, va, {i, j, r}) * k.read(b, vb, {i, j, r});
  k.store(c, View::contiguous({M, N}).index({i, j}).first, k.reduce(Op::ADD, prod, {r}), {i, j});
  return {k.finish()};
}

// softmax over the last axis of (M, N) as tinygrad splits it: the row max, the row sum of
// exp(x - max), then exp(x - max) / sum.
std::vector<UOp> softmax_kernels() {
  const std::int64_t M = 256, N = 1024;
  const View v = View::contiguous({M, N});
  std::vector<UOp> out;
  {
    KernelBuilder k("r_256_1024_max");
    auto mx = k.buffer(f32, M), x = k.buffer(f32, M * N);
    auto i = k.range(M), r = k.range(N, AxisType::Reduce);
    k.store(mx, i, k.reduce(Op::MAX, k.read(x, v, {i, r}), {r}), {i});
    out.push_back(k.finish());
  }
  {
    KernelBuilder k("r_256_1024_sum");
    auto sum = k.buffer(f32, M), x = k.buffer(f32, M * N), mx = k.buffer(f32, M);
    auto i = k.range(M), r = k.range(N, AxisType::Reduce);
    auto e = kernel::exp(k.read(x, v, {i, r}) - k.read(mx, i));
    k.store(sum, i, k.reduce(Op::ADD, e, {r}), {i});
    out.push_back(k.finish());
  }
  {
    KernelBuilder k("E_256_1024");
    auto y = k.buffer(f32, M * N), x = k.buffer(f32, M * N), mx = k.buffer(f32, M),
         sum = k.buffer(f32, M);
    auto i = k.range(M), j = k.range(N);
    auto e = kernel::exp(k.read(x, v, {i, j}) - k.read(mx, i));
    k.store(y, v.index({i, j}).first, e * UOp::make(Op::RECIPROCAL, {k.read(sum, i)}), {i, j});
    out.push_back(k.finish());
  }
  return out;
}

std::vector<UOp> conv2d_kernels() {
  const std::int64_t C = 32, H = 64, W = 64, O = 32, KH = 3, KW = 3;
  KernelBuilder k("r_32_64_64_32_3_3");
  auto out = k.buffer(f32, O * H * W), in = k.buffer(f32, C * H * W),
       wt = k.buffer(f32, O * C * KH * KW);
  auto o = k.range(O), y = k.range(H), x = k.range(W);
  auto c = k.range(C, AxisType::Reduce), ky = k.range(KH, AxisType::Reduce),
       kx = k.range(KW, AxisType::Reduce);
  const View vin = View::contiguous({C, H, W}).pad({{0, 0}, {1, 1}, {1, 1}});
  const View vw = View::contiguous({O, C, KH, KW});
  auto prod = k.read(in, vin, {c, y + ky, x + kx}) * k.read(wt, vw, {o, c, ky, kx});
  k.store(out, View::contiguous({O, H, W}).index({o, y, x}).first,
          k.reduce(Op::ADD, prod, {c, ky, kx}), {o, y, x});
  return {k.finish()};
}

struct HostCase {
  std::string name;
  std::vector<UOp> (*kernels)();
  double flops;
};

const std::vector<HostCase> &host_cases() {
  static const std::vector<HostCase> cases{
      {"matmul", matmul_kernels, 2.0 * 512 * 512 * 512},
      {"softmax", softmax_kernels, 5.0 * 256 * 1024},
      {"conv2d", conv2d_kernels, 2.0 * 32 * 64 * 64 * 32 * 3 * 3},
  };
  return cases;
}

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void BM_HostGflops(benchmark::State &state, const HostCase &hc, std::string target) {
  std::vector<codegen::RawRunner> runners;
  std::vector<std::vector<std::vector<float>>> buffers;  // per kernel, per parameter
  std::vector<std::vector<void *>> pointers;
  try {
    std::uint64_t seed = 1;
    for (const auto &k : hc.kernels()) {
      runners.push_back(codegen::compile_for_host_raw(k, target));
      const auto params = kernel::kernel_params(k);
      auto &bufs = buffers.emplace_back();
      for (const auto &b : kernel::make_buffers(params, seed++)) {
        if (b.dtype != dtypes::float32) throw std::runtime_error("float32 buffers only");
        bufs.emplace_back(b.data.begin(), b.data.end());
      }
    }
  } catch (const std::exception &e) {
    const auto message = fmt::format("does not compile: {}", e.what());
    return state.SkipWithError(message.c_str());
  }
  for (auto &bufs : buffers) {
    auto &p = pointers.emplace_back();
    for (auto &b : bufs) p.push_back(b.data());
  }
  for (std::size_t i = 0; i < runners.size(); ++i) runners[i](pointers[i].data());  // warm-up
  double total = 0, cpu_total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_seconds();
    for (std::size_t i = 0; i < runners.size(); ++i) runners[i](pointers[i].data());
    cpu_total += process_cpu_seconds() - c0;
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(dt);
    total += dt;
  }
  const double sec = total / double(state.iterations());
  const double cpu_sec = cpu_total / double(state.iterations());
  const double gflops = hc.flops / sec / 1e9, cpu_gflops = hc.flops / cpu_sec / 1e9;
  state.counters["GFLOP/s"] = gflops;
  state.counters["cpu_GFLOP/s"] = cpu_gflops;
  state.counters["ms"] = sec * 1e3;
  const auto &tg = tinygrad_cpu();
  if (!tg || !tg->contains(hc.name)) return;
  const auto &theirs = (*tg)[hc.name];
  state.counters["tinygrad_GFLOP/s"] = theirs.at("GFLOP/s").get<double>();
  state.counters["x_tinygrad"] = gflops / theirs.at("GFLOP/s").get<double>();
  if (theirs.contains("cpu_GFLOP/s"))
    state.counters["x_tinygrad_cpu"] = cpu_gflops / theirs.at("cpu_GFLOP/s").get<double>();
}

void register_benchmarks() {
  for (const auto &w : kWorkloads) {
    const auto path = workload_pickle(w);
    std::vector<UOp> kernels;
    try {
      kernels = kernel::tinygrad_kernels(path);
    } catch (const std::exception &e) {
      fmt::print(stderr, "{}: {} (set WAVESCOPE_TESTDATA): no compile benchmarks\n", path.string(),
                 e.what());
      continue;
    }
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const auto key = fmt::format("{}/{}", w, i);
      const auto label = fmt::format("{}:{}", key, kernel::kernel_name(kernels[i]));
      benchmark::RegisterBenchmark(("BM_CompileC/" + label).c_str(), BM_CompileC, kernels[i], key)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("BM_CompileLlvm/" + label).c_str(), BM_CompileLlvm, kernels[i],
                                   key)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("BM_CompileElf/" + label).c_str(), BM_CompileElf, kernels[i],
                                   key)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (const auto &hc : host_cases())
    for (const auto &t : codegen::host_targets())
      benchmark::RegisterBenchmark(fmt::format("BM_HostGflops/{}/{}", hc.name, t).c_str(),
                                   BM_HostGflops, hc, t)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
