// wavectl profile events|info on tinygrad's profile pickles, and every capture verb (sqtt waves,
// insts, stats, timeline; pmc) on the amd-sqtt pickles against their capture folders.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "corpus_names.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kSqttPickles;
using wavescope::testing::replace_all;

using nlohmann::json;
using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

TEST_CASE("profile events --json equals tinygrad VIZ's cli.jsonl on every workload") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t compared = 0;
  for (const char *workload : {"matmul_relu_sum", "elementwise", "softmax"}) {
    INFO(workload);
    const auto r =
        wavectl({"profile", "events", (root / workload / "profile.pkl").string(), "--json"});
    REQUIRE(r.exit_code == 0);
    const auto ours = json_lines(r.out);
    std::ifstream in(root / workload / "cli.jsonl");
    std::vector<json> expected;
    for (std::string line; std::getline(in, line);) expected.push_back(json::parse(line));
    REQUIRE(ours.size() == expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      INFO("line " << i + 1);
      CHECK(ours[i]["device"] == expected[i]["device"]);
      CHECK(ours[i]["name"] == expected[i]["name"]);
      CHECK(ours[i]["st_ms"].get<double>() ==
            Approx(expected[i]["st_ms"].get<double>()).margin(1e-6));
      CHECK(ours[i].contains("dur_ms") == expected[i].contains("dur_ms"));
      if (expected[i].contains("dur_ms"))
        CHECK(ours[i]["dur_ms"].get<double>() ==
              Approx(expected[i]["dur_ms"].get<double>()).margin(1e-6));
      ++compared;
    }
  }
  CHECK(compared == 919);
}

TEST_CASE("profile events (text) and info summarise a GPU profile") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_sync.pkl");
  const auto events = wavectl({"profile", "events", file.string()});
  REQUIRE(events.exit_code == 0);
  CHECK_THAT(events.out, Catch::Contains("--- SOURCE AMD Memory") &&
                             Catch::Contains("--- SOURCE custom_lds_sync SQTT SE:0 PKTS") &&
                             Catch::Contains("*** AMD     custom_lds_sync"));
  const auto info = wavectl({"profile", "info", file.string(), "--json"});
  REQUIRE(info.exit_code == 0);
  const auto j = json_lines(info.out).at(0);
  CHECK(j["devices"].size() == 3);
  CHECK(j["programs"] == 2);
  CHECK(j["sqtt_blobs"] == 12);
  CHECK(j["pmc_samples"] == 2);
  CHECK(j["memory_peak"] == 1024.0);
  CHECK(j["kernels"].size() == 2);
  const auto text = wavectl({"profile", "info", file.string()});
  CHECK_THAT(text.out, Catch::Contains("AMD Memory") && Catch::Contains("gfx1100") &&
                           Catch::Contains("custom_lds_sync"));
}

TEST_CASE("every capture verb prints the same on each amd-sqtt pickle as on its capture folder") {
  WAVESCOPE_REQUIRE_TESTDATA(pickles, "tinygrad-viz/amd-sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  const std::vector<std::vector<std::string>> verbs = {
      {"sqtt", "waves"}, {"sqtt", "insts"}, {"sqtt", "stats"}, {"sqtt", "timeline"}, {"pmc"}};
  std::size_t compared = 0, json_equal = 0;
  for (const std::string name : kSqttPickles) {
    const auto pickle = (pickles / (name + ".pkl")).string();
    const auto folder = (folders / folder_of(name)).string();
    for (const auto &verb : verbs)
      for (const bool as_json : {true, false}) {
        INFO(name << " " << verb.back() << (as_json ? " --json" : ""));
        auto args_of = [&](const std::string &source) {
          auto args = verb;
          args.push_back(source);
          if (as_json) args.push_back("--json");
          return args;
        };
        auto a = wavectl(args_of(pickle));
        auto b = wavectl(args_of(folder));
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        // The source is named as given; the capture folder's arch label is tinygrad's example
        // folder name (gfx1200 for a gfx1201 chip), a pickle's the device's processor.
        replace_all(a.out, pickle, "SOURCE");
        replace_all(b.out, folder, "SOURCE");
        if (!as_json && name.starts_with("gfx1200")) replace_all(b.out, "(gfx1200", "(gfx1201");
        CHECK(a.out == b.out);
        if (as_json && a.out == b.out) ++json_equal;
        ++compared;
      }
  }
  CHECK(compared == 12 * 5 * 2);
  CHECK(json_equal == 12 * 5);
}

TEST_CASE("profile and capture verbs refuse bad files with exit code 3 naming file and offset") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_gemm.pkl");
  WAVESCOPE_REQUIRE_TESTDATA(cpu_profile, "tinygrad-viz/softmax/profile.pkl");
  const wavescope::testing::TempDir temp;
  const auto bytes = wavescope::testing::read_file(file);
  const auto truncated = temp.path / "truncated.pkl";
  std::ofstream(truncated, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), 30000);
  for (const std::vector<std::string> &verb : {std::vector<std::string>{"profile", "events"},
                                               {"profile", "info"},
                                               {"sqtt", "stats"},
                                               {"sqtt", "waves"},
                                               {"pmc"}}) {
    auto args = verb;
    args.push_back(truncated.string());
    const auto r = wavectl(args);
    INFO(verb.back());
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::StartsWith("error: " + truncated.string()) &&
                          Catch::Contains("byte ") && Catch::Contains("truncated"));
    CHECK(r.out.empty());
  }
  const auto cpu = wavectl({"sqtt", "stats", cpu_profile.string()});
  CHECK(cpu.exit_code == 3);
  CHECK_THAT(cpu.err, Catch::Contains("no SQTT or PMC events"));
  const auto folder = wavectl({"profile", "info", temp.path.string()});
  CHECK(folder.exit_code == 3);
  CHECK_THAT(folder.err, Catch::Contains("not a profile file"));
  CHECK(wavectl({"profile", "--help"}).exit_code == 0);
  CHECK(wavectl({"profile", "events", "--help"}).exit_code == 0);
}
