// wavectl profile export: Chrome trace JSON from a tinygrad profile, a capture folder or a trace
// JSON; what it writes reads back as the same events; bad sources write nothing.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using nlohmann::json;
using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

namespace {

// The span lines of `profile events --json --exact`, with names as plain text; with `only`, just
// those of its tracks.
std::vector<std::string> span_lines(const std::string &file,
                                    const std::vector<std::string> *only = nullptr) {
  const auto r = wavectl({"profile", "events", file, "--json", "--exact"});
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> out;
  for (auto &j : json_lines(r.out)) {
    if (!j.contains("dur_ms")) continue;
    if (only && std::find(only->begin(), only->end(), j["device"]) == only->end()) continue;
    std::string name = j["name"];
    for (std::size_t at; (at = name.find('\x1b')) != std::string::npos;)
      name.erase(at, name.find('m', at) - at + 1);
    out.push_back(j["device"].get<std::string>() + " | " + name + " | " + j["st_ms"].dump() +
                  " | " + j["dur_ms"].dump());
  }
  return out;
}

}  // namespace

TEST_CASE("profile export: a tinygrad profile exports to JSON that lists the same events") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  const wavescope::testing::TempDir temp;
  std::size_t compared = 0;
  for (const auto &file :
       {root / "matmul_relu_sum" / "profile.pkl", root / "amd-sqtt" / "gfx1200_sync.pkl"}) {
    INFO(file.string());
    const auto out = temp.path / "trace.json";
    const auto r = wavectl({"profile", "export", file.string(), "-o", out.string(), "--json"});
    REQUIRE(r.exit_code == 0);
    const auto summary = json_lines(r.out).at(0);
    CHECK(summary["output"] == out.string());
    CHECK(summary["spans"].get<std::size_t>() > 0);
    // Perfetto reads the object form with "traceEvents"; every event names a phase.
    std::ifstream in(out);
    const auto trace = json::parse(in);
    REQUIRE(trace.contains("traceEvents"));
    for (const auto &e : trace["traceEvents"]) CHECK(e.contains("ph"));
    const auto a = span_lines(file.string());
    std::vector<std::string> tracks;
    for (const auto &line : a) tracks.push_back(line.substr(0, line.find(" | ")));
    // The same events; a profile with SQTT also gains its waves' tracks.
    const auto b = span_lines(out.string(), &tracks);
    CHECK(a == b);
    compared += a.size();
  }
  CHECK(compared == 350 + 135);
}

TEST_CASE("profile export: a capture folder exports its kernels and waves") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/sync");
  const wavescope::testing::TempDir temp;
  const auto out = temp.path / "capture.json";
  const auto r = wavectl({"profile", "export", dir.string(), "-o", out.string(), "--json"});
  REQUIRE(r.exit_code == 0);
  const auto s = json_lines(r.out).at(0);
  CHECK(s["waves"] == 5);  // meta.json: 5 waves over the two dispatches' blobs
  const auto info = wavectl({"profile", "info", out.string(), "--json"});
  REQUIRE(info.exit_code == 0);
  CHECK(json_lines(info.out).at(0)["format"] == "Chrome trace JSON");
}

TEST_CASE("profile export: bad sources exit 3, name file and offset, and write nothing") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/softmax/profile.pkl");
  const wavescope::testing::TempDir temp;
  const auto bytes = wavescope::testing::read_file(file);
  const auto truncated = temp.path / "truncated.pkl";
  std::ofstream(truncated, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), 999);
  const auto broken_json = temp.path / "broken.json";
  std::ofstream(broken_json) << R"({"traceEvents":[{"ph":"X","ts":1,"dur":2,"pid":1,)";
  const auto wrong = temp.path / "notes.txt";
  std::ofstream(wrong) << "not a profile";
  for (const auto &source : {truncated, broken_json, wrong}) {
    INFO(source.string());
    const auto out = temp.path / "out.json";
    const auto r = wavectl({"profile", "export", source.string(), "-o", out.string()});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::StartsWith("error: " + source.string()));
    CHECK_FALSE(std::filesystem::exists(out));
  }
  const auto r = wavectl({"profile", "export", (temp.path / "missing.pkl").string(), "-o",
                          (temp.path / "out.json").string()});
  CHECK(r.exit_code == 3);
  const auto usage = wavectl({"profile", "export", file.string()});
  CHECK(usage.exit_code == 2);  // -o is required
}
