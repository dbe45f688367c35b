// wavectl compile and run: the C target on built-in examples, kernel JSON files and tinygrad's
// rewrites.pkl; the --json contract of run; the exit status when a kernel is over tolerance;
// bad input.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

TEST_CASE("wavectl run --check --json: one object per kernel, all within tolerance") {
  const auto r = wavectl({"run", "matmul", "--target", "c", "--check", "--json", "--seed", "3"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto lines = json_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0]["kernel"] == "r_16_20_24");
  CHECK(lines[1]["kernel"] == "r_320");
  for (const auto &j : lines) {
    CHECK(j["target"] == "c");
    CHECK(j["ok"] == true);
    CHECK(j["max_abs_err"].get<double>() < 1e-4);
    CHECK(j["max_rel_err"].is_number());
  }
}

TEST_CASE("wavectl compile: C source, AST JSON that run reads back, a folder per kernel, a trace") {
  TempDir dir;
  const auto c = wavectl({"compile", "softmax", "--target", "c", "--emit", "c", "--noopt"});
  REQUIRE(c.exit_code == 0);
  CHECK(c.out.find("void r_8_48_48_48(float *restrict data0, const float *restrict data1)") !=
        std::string::npos);
  const auto ast = dir.path / "softmax.json";
  REQUIRE(wavectl({"compile", "softmax", "--emit", "ast", "-o", ast.string()}).exit_code == 0);
  const auto back = wavectl({"run", ast.string(), "--check", "--json"});
  INFO(back.err);
  REQUIRE(back.exit_code == 0);
  CHECK(json_lines(back.out).at(0)["kernel"] == "r_8_48_48_48");
  const auto folder = dir.path / "reduce";
  REQUIRE(wavectl({"compile", "reduce", "-o", folder.string()}).exit_code == 0);
  CHECK(std::filesystem::exists(folder / "0_r_24_40.c"));
  CHECK(std::filesystem::exists(folder / "1_r_40_24.c"));
  const auto trace = dir.path / "t.json";
  REQUIRE(wavectl({"compile", "conv2d", "--trace", trace.string()}).exit_code == 0);
  const auto info = wavectl({"rewrite-trace", "info", trace.string()});
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("r_4_9_9_3_3_3") != std::string::npos);
  CHECK(info.out.find("add loads: read of memory used as a value -> LOAD") != std::string::npos);
}

TEST_CASE("wavectl run: tinygrad's kernels from a rewrites.pkl") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/softmax/rewrites.pkl");
  const auto r = wavectl({"run", pkl.string(), "--check", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto lines = json_lines(r.out);
  REQUIRE(lines.size() == 5);
  for (const auto &j : lines) CHECK(j["ok"] == true);
  const auto one = wavectl({"run", pkl.string(), "--kernel", "E_32_32_4", "--check", "--json"});
  REQUIRE(one.exit_code == 0);
  CHECK(json_lines(one.out).size() == 1);
}

TEST_CASE("wavectl compile/run: bad input is a clear error and a non-zero exit") {
  TempDir dir;
  const auto unknown = wavectl({"run", "nonesuch", "--check"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("neither a kernel file nor a built-in example") != std::string::npos);
  const auto bad = dir.path / "bad.json";
  {
    std::ofstream(bad) << R"({"format":"wavescope-kernel-ast","version":1,"nodes":[{"op":"FROB",)"
                          R"("dtype":"index","src":[]}],"root":0})";
  }
  const auto r = wavectl({"compile", bad.string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("nodes[0].op: unknown op 'FROB'") != std::string::npos);
  const auto nokernel = wavectl({"run", "matmul", "--kernel", "zzz"});
  CHECK(nokernel.exit_code == 2);
  CHECK(nokernel.err.find("no kernel named 'zzz'") != std::string::npos);
}

TEST_CASE(
    "wavectl run --target cpu: the LLVM target on every built-in example and tinygrad kernel") {
  std::size_t kernels = 0;
  for (const char *example :
       {"elementwise", "reduce", "matmul", "softmax", "layernorm", "conv2d"}) {
    const auto r = wavectl({"run", example, "--target", "cpu", "--check", "--json"});
    INFO(example << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    for (const auto &j : json_lines(r.out)) {
      CHECK(j["target"] == "cpu");
      CHECK(j["ok"] == true);
      ++kernels;
    }
  }
  CHECK(kernels == 8);
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t imported = 0;
  for (const char *workload : {"elementwise", "matmul_relu_sum", "softmax"}) {
    const auto pkl = root / workload / "rewrites.pkl";
    const auto r = wavectl({"run", pkl.string(), "--target", "cpu", "--check", "--json"});
    INFO(workload << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    for (const auto &j : json_lines(r.out)) {
      CHECK(j["ok"] == true);
      ++imported;
    }
  }
  CHECK(imported == 13);
}

TEST_CASE("wavectl compile/run --opts|--heuristic|--noopt: the optimizations applied, checked") {
  TempDir dir;
  // Explicit opts: the kernel is renamed from its axes (matmul's L16 L20 R24 becomes L4 L20 u4
  // R6 r4) and still computes what the interpreter computes on the unoptimized AST.
  const auto c = wavectl({"compile", "matmul", "--kernel", "r_16_20_24", "--emit", "c", "--opts",
                          "UPCAST:0:4,UNROLL:0:4"});
  INFO(c.err);
  REQUIRE(c.exit_code == 0);
  CHECK(c.out.find("void r_4_20_4_6_4(") != std::string::npos);
  for (const std::vector<std::string> &flags :
       {std::vector<std::string>{"--opts", "UPCAST:0:4,UNROLL:0:4"},
        std::vector<std::string>{"--opts", "SPLIT:1:4:UPCAST:top,SPLIT:3:3:UNROLL"},
        std::vector<std::string>{"--noopt"}, std::vector<std::string>{"--heuristic"}})
    for (const char *target : {"c", "cpu"}) {
      std::vector<std::string> args{"run",      "matmul", "--kernel", "r_16_20_24",
                                    "--target", target,   "--check",  "--json"};
      args.insert(args.end(), flags.begin(), flags.end());
      const auto r = wavectl(args);
      INFO(target << " " << flags[0] << ": " << r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(json_lines(r.out).at(0)["ok"] == true);
    }
  // The opts travel in the kernel's AST (its KernelInfo), as tinygrad's do.
  const auto ast = dir.path / "m.json";
  REQUIRE(wavectl({"compile", "matmul", "--kernel", "r_16_20_24", "--emit", "ast", "--opts",
                   "UNROLL:0:4", "-o", ast.string()})
              .exit_code == 0);
  std::ifstream in(ast);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("opts_to_apply=(Opt(op=OptOps.UNROLL, axis=0, arg=4),)") != std::string::npos);
  const auto from_file = wavectl({"compile", ast.string(), "--emit", "c"});
  REQUIRE(from_file.exit_code == 0);
  CHECK(from_file.out.find("void r_16_20_6_4(") != std::string::npos);
  CHECK(wavectl({"compile", ast.string(), "--emit", "c", "--noopt"}).out.find("void r_16_20_24(") !=
        std::string::npos);
  // An opt that does not apply: exit 3 and a message naming it, the kernel, its axes and why.
  const auto bad = wavectl({"compile", "matmul", "--kernel", "r_16_20_24", "--opts", "UPCAST:0:3"});
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("invalid opt UPCAST:0:3 on kernel r_16_20_24 (L16 L20 R24): 3 does not "
                     "divide axis 0 (L16)") != std::string::npos);
  const auto no_local = wavectl({"run", "reduce", "--opts", "LOCAL:0:4", "--check"});
  CHECK(no_local.exit_code == 3);
  CHECK(no_local.err.find("target c has no local axes") != std::string::npos);
  // A malformed list or two choices at once: usage errors.
  const auto malformed = wavectl({"compile", "matmul", "--opts", "UPCAST:0"});
  CHECK(malformed.exit_code == 2);
  CHECK(malformed.err.find("opt 'UPCAST:0': UPCAST takes AXIS:AMOUNT") != std::string::npos);
  CHECK(wavectl({"compile", "matmul", "--opts", "UPCAST:0:4", "--noopt"}).exit_code == 2);
  CHECK(wavectl({"run", "matmul", "--heuristic", "--noopt"}).exit_code == 2);
  const auto help = wavectl({"compile", "--help"});
  CHECK(help.out.find("SPLIT:1:4:UNROLL") != std::string::npos);
}

TEST_CASE("wavectl compile --target cpu --emit llvm: LLVM IR, one .ll per kernel in a folder") {
  TempDir dir;
  const auto r = wavectl({"compile", "softmax", "--target", "cpu", "--emit", "llvm", "--noopt"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("define void @r_8_48_48_48(ptr noalias align 16 %data0, ptr noalias align 16 "
                   "readonly %data1)") != std::string::npos);
  const auto folder = dir.path / "reduce";
  REQUIRE(wavectl({"compile", "reduce", "--target", "cpu", "-o", folder.string()}).exit_code == 0);
  CHECK(std::filesystem::exists(folder / "0_r_24_40.ll"));
  CHECK(std::filesystem::exists(folder / "1_r_40_24.ll"));
  const auto mixed = wavectl({"compile", "reduce", "--target", "cpu", "--emit", "c"});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("--emit c needs --target c") != std::string::npos);
  const auto c_llvm = wavectl({"compile", "reduce", "--target", "c", "--emit", "llvm"});
  CHECK(c_llvm.exit_code == 2);
}

TEST_CASE("wavectl compile --target gfx1100|gfx1201|gfx950: assembly and code objects") {
  TempDir dir;
  const auto s =
      wavectl({"compile", "reduce", "--kernel", "r_24_40", "--target", "gfx1100", "--noopt"});
  INFO(s.err);
  REQUIRE(s.exit_code == 0);
  CHECK(s.out.find(".amdhsa_kernel r_24_40") != std::string::npos);
  const auto ir = wavectl({"compile", "reduce", "--target", "gfx950", "--emit", "llvm", "--noopt"});
  REQUIRE(ir.exit_code == 0);
  CHECK(ir.out.find("define amdgpu_kernel void @r_24_40(ptr addrspace(1)") != std::string::npos);
  for (const char *target : {"gfx1100", "gfx1201", "gfx950"}) {
    const auto folder = dir.path / target;
    const auto r =
        wavectl({"compile", "matmul", "--target", target, "--emit", "elf", "-o", folder.string()});
    INFO(target << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    const auto obj = folder / "0_r_16_20_24.hsaco";
    REQUIRE(std::filesystem::exists(obj));
    const auto info = wavectl({"codeobj", obj.string()});
    REQUIRE(info.exit_code == 0);
    CHECK(info.out.find(std::string("code object for ") + target) != std::string::npos);
    CHECK(info.out.find("r_16_20_24") != std::string::npos);
  }
  const auto no_out = wavectl({"compile", "reduce", "--target", "gfx1100", "--emit", "elf"});
  CHECK(no_out.exit_code == 2);
  CHECK(no_out.err.find("give -o") != std::string::npos);
  const auto cpu_asm = wavectl({"compile", "reduce", "--target", "cpu", "--emit", "asm"});
  CHECK(cpu_asm.exit_code == 2);
  CHECK(cpu_asm.err.find("needs a GPU target") != std::string::npos);
}

TEST_CASE(
    "wavectl run --save DIR: a folder per kernel with inputs, outputs, code objects, manifest") {
  TempDir dir;
  const auto r = wavectl({"run", "matmul", "--save", dir.path.string(), "--check", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(json_lines(r.out).size() == 2);
  for (const auto &[folder, kernel] :
       {std::pair{"0_r_16_20_24", "r_16_20_24"}, std::pair{"1_r_320", "r_320"}}) {
    INFO(folder);
    const auto path = dir.path / folder;
    std::ifstream in(path / "manifest.json");
    REQUIRE(in);
    const auto manifest = nlohmann::json::parse(in);
    CHECK(manifest["kernel"] == kernel);
    CHECK(manifest["cpu_target"] == "c");
    for (const auto &a : manifest["args"]) {
      CHECK(std::filesystem::file_size(path / a["input"].get<std::string>()) == a["bytes"]);
      if (a["written"] == true)
        CHECK(std::filesystem::file_size(path / a["output"].get<std::string>()) == a["bytes"]);
    }
    for (const auto *gpu : {"gfx1100", "gfx1201", "gfx950"})
      CHECK(std::filesystem::file_size(
                path / manifest["targets"][gpu]["code_object"].get<std::string>()) > 0);
  }
}

TEST_CASE("wavectl run --check|--save: half and bfloat16 kernels, their buffers 16 bits a value") {
  const std::string file = std::string(WAVESCOPE_KERNEL_FIXTURES) + "/half_plus_bf16.json";
  for (const auto *target : {"c", "cpu"}) {
    const auto r = wavectl({"run", file, "--target", target, "--check", "--heuristic", "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto lines = json_lines(r.out);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["ok"] == true);
    CHECK(lines[0]["max_abs_err"].get<double>() == 0);
  }
  TempDir dir;
  const auto r = wavectl({"run", file, "--save", dir.path.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::ifstream in(dir.path / "0_E_16_4" / "manifest.json");
  REQUIRE(in);
  const auto manifest = nlohmann::json::parse(in);
  // a bfloat16 sum: held to 8 bfloat16 ulps of 1.0
  CHECK(manifest["tolerance"]["rtol"].get<double>() == 8.0 / 128);
  std::vector<std::string> dtypes;
  for (const auto &a : manifest["args"]) {
    dtypes.push_back(a["dtype"]);
    CHECK(a["bytes"] == 2 * a["elements"].get<int>());
    CHECK(std::filesystem::file_size(dir.path / "0_E_16_4" / a["input"].get<std::string>()) ==
          a["bytes"]);
  }
  CHECK(dtypes == std::vector<std::string>{"bfloat16", "half", "bfloat16"});
}

TEST_CASE("wavectl run --profile FILE: each kernel's run as a span the profile verbs read back") {
  TempDir dir;
  const auto file = dir.path / "runs.json";
  const auto r = wavectl({"run", "matmul", "--target", "c", "--profile", file.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(json_lines(r.out).size() == 2);
  const auto events = wavectl({"profile", "events", file.string(), "--json"});
  INFO(events.err);
  REQUIRE(events.exit_code == 0);
  std::vector<nlohmann::json> spans;
  for (const auto &j : json_lines(events.out))
    if (j.contains("dur_ms") && !j["dur_ms"].is_null()) spans.push_back(j);
  REQUIRE(spans.size() == 2);
  CHECK(spans[0]["name"] == "r_16_20_24");
  CHECK(spans[1]["name"] == "r_320");
  for (const auto &s : spans) {
    CHECK(s["device"] == "CPU");
    CHECK(s["dur_ms"].get<double>() >= 0.0);
    CHECK(s["fmt"]["target"] == "c");
    CHECK(s["fmt"]["GFLOP/s"].is_number());
    CHECK(s["fmt"]["GB/s"].is_number());
  }
  CHECK(spans[0]["fmt"]["ops"] == 2 * 16 * 20 * 24);  // kernel/estimates.hpp
  CHECK(spans[0]["fmt"]["bytes"] == 4 * (16 * 20 + 16 * 24 + 24 * 20));
  // The first run ends before the second starts.
  CHECK(spans[0]["st_ms"].get<double>() <= spans[1]["st_ms"].get<double>());
  const auto info = wavectl({"profile", "info", file.string()});
  REQUIRE(info.exit_code == 0);
  CHECK_THAT(info.out, Catch::Contains("CPU"));
  const auto bad = wavectl({"run", "matmul", "--profile", (dir.path / "no" / "x.json").string()});
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.err, Catch::StartsWith("error: "));
}
