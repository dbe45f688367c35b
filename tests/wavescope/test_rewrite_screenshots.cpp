// `wavescope --screenshot OUT --view rewrite` on the demo and on a trace libcompiler writes in
// the test, and bad rewrite-trace files: a clear message on stderr and exit 3, never a crash.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "process.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using wavescope::testing::check_screenshot;
using wavescope::testing::run_process;

namespace {

// Runs the app on a bad file in screenshot mode; returns its stderr after checking exit 3.
std::string open_bad(const wavescope::testing::TempDir &temp, const std::string &name,
                     const std::string &text) {
  const auto path = temp.path / name;
  std::ofstream(path) << text;
  const auto r = run_process({WAVESCOPE_APP_BINARY, path.string(), "--screenshot",
                              (temp.path / "bad.png").string(), "--view", "rewrite"},
                             {"QT_QPA_PLATFORM=offscreen"});
  INFO(r.err);
  CHECK(r.exit_code == 3);
  return r.err;
}

}  // namespace

TEST_CASE("screenshot of the rewrite view on the demo") {
  check_screenshot({}, "rewrite", "demo-rewrite");
}

TEST_CASE("screenshot of the rewrite view on a trace written by libcompiler") {
  using namespace wavescope::compiler;
  const wavescope::testing::TempDir temp;
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    rewrite::TraceGroup group("conv index");
    const UOp g = variable("gidx0", 0, 31), l = variable("lidx0", 0, 15);
    const UOp i = g * 16 + l;
    symbolic::simplify(floordiv(i, 64) * 64 + floormod(floordiv(i, 8), 8) * 8 + floormod(i, 8));
  }
  const auto path = temp.path / "conv-index.json";
  trace.write_json(path);
  check_screenshot({path.string()}, "rewrite", "trace-rewrite");
}

TEST_CASE("screenshot of the rewrite view on the symbolic corpus") {
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  check_screenshot({cases.string()}, "rewrite", "symbolic-dev-rewrite");
}

TEST_CASE("bad rewrite trace files give a message and exit 3, not a crash") {
  const wavescope::testing::TempDir temp;
  CHECK_THAT(open_bad(temp, "truncated.json", R"({"version": 1, "nodes": {"0": {"op")"),
             Catch::Contains("truncated.json: not JSON"));
  CHECK_THAT(open_bad(temp, "future.json", R"({"version": 3, "nodes": {}, "groups": []})"),
             Catch::Contains("unsupported version 3"));
  CHECK_THAT(
      open_bad(
          temp, "dangling.json",
          R"({"version":1,"nodes":{"0":{"op":"CONST","dtype":"index","src":[],"arg":1},"1":{"op":"ADD","dtype":"index","src":[0,4]}},"groups":[]})"),
      Catch::Contains("nodes.1.src[1]: node 4 is not in the node table"));
  CHECK_THAT(open_bad(temp, "empty.json", ""), Catch::Contains("empty.json: not JSON"));
  CHECK_THAT(open_bad(temp, "cases.jsonl", "{\"id\": 7}\n"), Catch::Contains("cases.jsonl"));
}
