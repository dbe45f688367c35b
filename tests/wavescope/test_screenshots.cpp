// `wavescope --screenshot` renders each view offscreen, on the demo and on corpus code objects,
// and bad files give a clear message instead of a crash.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "process.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"

using wavescope::testing::check_screenshot;
using wavescope::testing::run_process;

TEST_CASE("screenshots of the demo") {
  for (const std::string view : {"waves", "timing", "isa", "cfg", "counters"})
    check_screenshot({}, view, "demo-" + view);
}

TEST_CASE("screenshots of corpus captures") {
  WAVESCOPE_REQUIRE_TESTDATA(handwritten, "sqtt/gfx1200/handwritten");
  for (const std::string view : {"waves", "timing", "isa", "cfg", "counters"})
    check_screenshot({handwritten.string()}, view, "gfx1200-handwritten-" + view);
  WAVESCOPE_REQUIRE_TESTDATA(cdna, "sqtt/gfx950/gemm");
  for (const std::string view : {"waves", "counters"})
    check_screenshot({cdna.string()}, view, "gfx950-gemm-" + view);
}

TEST_CASE("screenshots of corpus code objects") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx950/gemm/program.elf");
  check_screenshot({elf.string()}, "isa", "gfx950-gemm-isa");
  check_screenshot({elf.string()}, "cfg", "gfx950-gemm-cfg");
}

TEST_CASE("an unknown view name is refused with the list of views") {
  const auto r = run_process({WAVESCOPE_APP_BINARY, "--screenshot", "/tmp/x.png", "--view", "nope"},
                             {"QT_QPA_PLATFORM=offscreen"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no view named 'nope'"));
  CHECK_THAT(r.err, Catch::Contains("isa"));
}

TEST_CASE("bad files give a message, not a crash") {
  const wavescope::testing::TempDir temp;
  const auto &dir = temp.path;
  const auto not_elf = dir / "bad.elf";
  std::ofstream(not_elf) << "\x7f"
                            "ELF"
                            "garbage";
  const auto r = run_process(
      {WAVESCOPE_APP_BINARY, not_elf.string(), "--screenshot", (dir / "bad.png").string()},
      {"QT_QPA_PLATFORM=offscreen"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("truncated ELF"));
}
