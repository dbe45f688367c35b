// wavectl compile and run: the C target on built-in examples, kernel JSON files and tinygrad's
// rewrites.pkl; the --json contract of run; the exit status when a kernel is over tolerance;
// bad input.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

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
  const auto c = wavectl({"compile", "softmax", "--target", "c", "--emit", "c"});
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
  CHECK(info.out.find("add loads: read INDEX -> LOAD(INDEX)") != std::string::npos);
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
