// `wavescope --screenshot OUT --view rewrite` on the demo and on a trace libcompiler writes in
// the test, and bad rewrite-trace files: a clear message on stderr and exit 3, never a crash.

#include <catch2/catch.hpp>

#include <QImage>

#include <filesystem>
#include <fstream>
#include <set>

#include "process.hpp"
#include "temp_dir.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using wavescope::testing::run_process;

namespace {

const std::filesystem::path kShots = std::filesystem::path(WAVESCOPE_BUILD_SCREENSHOTS);

// Distinct colours in a downsampled image: a blank or single-colour render has very few.
std::size_t colour_variety(const QImage &image) {
  std::set<QRgb> colours;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4) colours.insert(image.pixel(x, y));
  return colours.size();
}

void check_rewrite_screenshot(const std::vector<std::string> &paths, const std::string &name) {
  std::filesystem::create_directories(kShots);
  const auto out = kShots / (name + ".png");
  std::filesystem::remove(out);
  std::vector<std::string> argv = {WAVESCOPE_APP_BINARY};
  argv.insert(argv.end(), paths.begin(), paths.end());
  argv.insert(argv.end(), {"--screenshot", out.string(), "--view", "rewrite"});
  const auto r = run_process(argv, {"QT_QPA_PLATFORM=offscreen"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  QImage image(QString::fromStdString(out.string()));
  REQUIRE(!image.isNull());
  CHECK(image.width() >= 800);
  CHECK(colour_variety(image) > 40);
}

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
  check_rewrite_screenshot({}, "demo-rewrite");
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
  check_rewrite_screenshot({path.string()}, "trace-rewrite");
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
}
