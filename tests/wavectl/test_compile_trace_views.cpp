// wavectl compile --trace ends each kernel's group with linearize/render, and rewrite-trace
// contexts lists VIZ's view steps after it (View UOp List, View Source, View Disassembly), for
// the c, cpu and gfx1100 targets.

#include <catch2/catch.hpp>

#include <string>

#include "temp_dir.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

TEST_CASE("wavectl compile --trace: rewrite-trace contexts lists the view steps") {
  TempDir dir;
  for (const std::string target : {"c", "cpu", "gfx1100"}) {
    INFO(target);
    const auto trace = dir.path / (target + ".json");
    const auto compiled =
        wavectl({"compile", "conv2d", "--target", target, "--trace", trace.string()});
    INFO(compiled.err);
    REQUIRE(compiled.exit_code == 0);
    const auto contexts = wavectl({"rewrite-trace", "contexts", trace.string(), "--json"});
    REQUIRE(contexts.exit_code == 0);
    const auto lines = json_lines(contexts.out);
    REQUIRE(lines.size() == 1);
    // The group carries the kernel's final name: the GPU's opts (LOCAL, GROUP) rename it.
    CHECK(lines[0]["name"] == (target == "gfx1100" ? "r_3_3_4_3_3_3_3_3" : "r_4_9_9_3_3_3"));
    CHECK(compiled.out.find(lines[0]["name"].get<std::string>()) != std::string::npos);
    const auto &steps = lines[0]["steps"];
    REQUIRE(steps.size() > 4);
    const std::size_t n = steps.size();
    CHECK(steps[n - 4]["name"] == "linearize/render");
    // LINEAR and SOURCE, and for the GPU the code object (its default emit is asm: compiled).
    CHECK(steps[n - 4]["match_count"] == (target == "gfx1100" ? 3 : 2));
    CHECK(steps[n - 3]["name"] == "View UOp List");
    CHECK(steps[n - 2]["name"] == "View Source");
    CHECK(steps[n - 1]["name"] == "View Disassembly");
    for (std::size_t i = n - 3; i < n; ++i) {
      CHECK(steps[i]["match_count"].is_null());
      CHECK(steps[i]["loc"].is_null());
      CHECK(steps[i]["depth"] == steps[n - 4]["depth"]);
    }
    const auto text = wavectl({"rewrite-trace", "contexts", trace.string()});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("  View Source") != std::string::npos);
  }
}
