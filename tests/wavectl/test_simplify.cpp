// wavectl simplify: one expression, corpus case files (the --cases --json contract), errors, and
// the dev corpus scored by the corpus' own checker (../shared/tools/symbolic_eval.py).

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::run_process;
using wavescope::testing::wavectl;

namespace {
// A program found on PATH (posix_spawn does not search it), or an empty path.
std::filesystem::path find_program(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const auto end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate =
        std::filesystem::path(dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

std::filesystem::path temp_path(const std::string &name) {
  return std::filesystem::temp_directory_path() /
         ("wavescope-simplify-" + std::to_string(::getpid()) + "-" + name);
}
}  // namespace

TEST_CASE("wavectl simplify prints the result, its range and operation counts") {
  const auto r = wavectl({"simplify", "(5+7*a)%8", "--var", "a=0:3"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "a*-1+5\nrange: [2, 5]\nops: 2 (input 3)\n");
}

TEST_CASE("wavectl simplify --json --verify reports the check") {
  const auto r =
      wavectl({"simplify", "x//3%4*2+x//12%5*8", "--var", "x=0:199", "--json", "--verify"});
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["simplified"] == "x//3%20*2");
  CHECK(j["min"] == 0);
  CHECK(j["max"] == 38);
  CHECK(j["ops"] == 3);
  CHECK(j["input_ops"] == 7);
  CHECK(j["equivalent"] == true);
}

TEST_CASE("wavectl simplify: sized variables, constraints and results that may be invalid") {
  const auto sized = wavectl({"simplify", "x+100+100", "--var", "x=0:10:int8"});
  REQUIRE(sized.exit_code == 0);
  CHECK_THAT(sized.out, Catch::StartsWith("x+-56\n"));
  const auto ranged = wavectl(
      {"simplify", "r0//(a+1)", "--var", "a=1:10", "--var", "r0=0:10", "--constraint", "r0<a+1"});
  REQUIRE(ranged.exit_code == 0);
  CHECK_THAT(ranged.out, Catch::StartsWith("0\n"));
  const auto gated = wavectl({"simplify", "where(a<4, a%8, invalid)", "--var", "a=0:15", "--json"});
  REQUIRE(gated.exit_code == 0);
  const auto j = json_lines(gated.out).at(0);
  CHECK(j["simplified"] == "where(a<4, a, invalid)");
  CHECK(j["min"].is_null());
  CHECK(j["max"].is_null());
}

TEST_CASE("wavectl simplify refuses bad input with a message and the kind's exit code") {
  const auto unknown = wavectl({"simplify", "a+b", "--var", "a=0:3"});
  CHECK(unknown.exit_code == 3);
  CHECK_THAT(unknown.err, Catch::Contains("unknown variable 'b'") && Catch::Contains("--var b="));
  const auto syntax = wavectl({"simplify", "a+*2", "--var", "a=0:3"});
  CHECK(syntax.exit_code == 3);
  CHECK_THAT(syntax.err, Catch::Contains("column 3"));
  const auto bad_var = wavectl({"simplify", "a", "--var", "a=3:1"});
  CHECK(bad_var.exit_code == 2);
  CHECK_THAT(bad_var.err, Catch::Contains("MIN is greater than MAX"));
  const auto nothing = wavectl({"simplify"});
  CHECK(nothing.exit_code == 2);
  const auto help = wavectl({"simplify", "--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("--cases") && Catch::Contains("--trace"));
}

TEST_CASE("wavectl simplify --cases --json prints exactly {id, simplified, min, max} per case") {
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  const auto r = wavectl({"simplify", "--cases", cases.string(), "--json", "-q"});
  REQUIRE(r.exit_code == 0);
  std::size_t lines = 0, null_ranges = 0;
  std::ifstream in(cases);
  std::string case_line;
  std::size_t start = 0;
  while (std::getline(in, case_line)) {
    if (case_line.empty()) continue;
    const auto end = r.out.find('\n', start);
    REQUIRE(end != std::string::npos);
    const auto line = r.out.substr(start, end - start);
    start = end + 1;
    const auto j = nlohmann::ordered_json::parse(line);
    std::vector<std::string> keys;
    for (const auto &[k, v] : j.items()) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"id", "simplified", "min", "max"});
    CHECK(j["id"] == nlohmann::json::parse(case_line)["id"]);
    CHECK(line.find("\": ") == std::string::npos);  // compact JSON
    if (j["min"].is_null()) ++null_ranges;
    ++lines;
  }
  CHECK(start == r.out.size());
  CHECK(lines == 162);
  CHECK(null_ranges >= 3);  // the cases whose result can be invalid
}

TEST_CASE("the dev corpus scored by symbolic_eval.py: all equivalent, no larger than tinygrad") {
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  const auto tool =
      wavescope::testing::testdata_root().parent_path() / "tools" / "symbolic_eval.py";
  if (!std::filesystem::exists(tool)) {
    if (wavescope::testing::running_in_ci())
      FAIL("symbolic_eval.py missing under CI: " << tool.string());
    WARN("skipped: " << tool.string() << " not found");
    return;
  }
  const auto python = find_program("python3");
  if (python.empty()) {
    if (wavescope::testing::running_in_ci()) FAIL("python3 not found on PATH under CI");
    WARN("skipped: python3 not found on PATH");
    return;
  }
  const auto candidates = temp_path("candidates.jsonl");
  const auto report_path = temp_path("report.json");
  const auto r = wavectl({"simplify", "--cases", cases.string(), "--json", "-q"});
  REQUIRE(r.exit_code == 0);
  std::ofstream(candidates) << r.out;
  const auto eval = run_process({python.string(), tool.string(), candidates.string(),
                                 cases.string(), "--quiet", "--json", report_path.string()});
  INFO(eval.out << eval.err);
  REQUIRE(eval.exit_code == 0);
  std::ifstream report_file(report_path);
  const auto report = nlohmann::json::parse(report_file);
  const int total = report["cases"];
  CHECK(total == 162);
  CHECK(report["equivalent"] == total);
  CHECK(report["equivalent_and_ops_le_tinygrad"] == total);
  CHECK(report["minmax_match"] == report["minmax_reported"]);
  CHECK(report["failures"].empty());
  std::filesystem::remove(candidates);
  std::filesystem::remove(report_path);
}

TEST_CASE("wavectl simplify --cases --verify summarizes on stderr and fails on a bad case file") {
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  const auto r = wavectl({"simplify", "--cases", cases.string(), "--verify", "-q"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("162 cases: 162 equivalent"));
  const auto bad = temp_path("bad.jsonl");
  std::ofstream(bad) << R"({"id":"x","expr":"a+","vars":{"a":[0,3]}})"
                     << "\n";
  const auto failed = wavectl({"simplify", "--cases", bad.string(), "--json", "-q"});
  CHECK(failed.exit_code == 3);
  CHECK_THAT(failed.err, Catch::Contains("case x:"));
  CHECK(json_lines(failed.out).at(0)["simplified"] == "a+");  // the line is still printed
  std::filesystem::remove(bad);
}
