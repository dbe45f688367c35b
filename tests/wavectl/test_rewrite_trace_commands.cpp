// wavectl simplify --trace writes a rewrite trace; wavectl rewrite-trace info/show read it back.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

namespace {
std::filesystem::path temp_path(const std::string &name) {
  return std::filesystem::temp_directory_path() /
         ("wavescope-trace-" + std::to_string(::getpid()) + "-" + name);
}
}  // namespace

TEST_CASE("simplify --trace, then rewrite-trace info and show replay the steps") {
  const auto trace = temp_path("one.json");
  const auto s =
      wavectl({"simplify", "(a+0)*1", "--var", "a=0:8", "--trace", trace.string(), "-q"});
  REQUIRE(s.exit_code == 0);
  REQUIRE(std::filesystem::exists(trace));

  const auto info = wavectl({"rewrite-trace", "info", trace.string()});
  REQUIRE(info.exit_code == 0);
  CHECK_THAT(info.out, Catch::Contains("1 groups, 1 rewrites, 2 steps"));
  CHECK_THAT(info.out, Catch::Contains("identities: x*1 -> x"));

  const auto info_json = wavectl({"rewrite-trace", "info", trace.string(), "--json"});
  REQUIRE(info_json.exit_code == 0);
  const auto group = json_lines(info_json.out).at(0);
  CHECK(group["name"] == "simplify (a+0)*1");
  CHECK(group["steps"][0]["name"] == "simplify");
  CHECK(group["steps"][0]["match_count"] == 2);
  CHECK(group["steps"][0]["depth"] == 0);

  const auto show = wavectl({"rewrite-trace", "show", trace.string()});
  REQUIRE(show.exit_code == 0);
  CHECK_THAT(show.out, Catch::Contains("a+0  =>  a") && Catch::Contains("= a*1"));
  CHECK_THAT(show.out, Catch::Contains("replay: the steps reproduce the recorded output"));

  const auto show_json = wavectl({"rewrite-trace", "show", trace.string(), "--json"});
  REQUIRE(show_json.exit_code == 0);
  const auto steps = json_lines(show_json.out);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0]["before"] == "a+0");
  CHECK(steps[0]["after"] == "a");
  CHECK(steps[0]["graph"] == "a*1");
  CHECK(steps[1]["graph"] == "a");
  std::filesystem::remove(trace);
}

TEST_CASE("simplify --cases --trace groups the steps by case") {
  WAVESCOPE_REQUIRE_TESTDATA(cases, "symbolic/dev.jsonl");
  const auto trace = temp_path("cases.json");
  REQUIRE(
      wavectl({"simplify", "--cases", cases.string(), "--json", "-q", "--trace", trace.string()})
          .exit_code == 0);
  const auto info = wavectl({"rewrite-trace", "info", trace.string(), "--json"});
  REQUIRE(info.exit_code == 0);
  const auto groups = json_lines(info.out);
  CHECK(groups.size() == 162);
  CHECK(groups[0]["name"] == "test_simplify_valid_idx/TestValidIdxSimplification.test_cumsum/1");
  // Every group's rewrite replays to its output.
  for (int g : {0, 40, 161}) {
    const auto show =
        wavectl({"rewrite-trace", "show", trace.string(), "--group", std::to_string(g)});
    CHECK(show.exit_code == 0);
  }
  std::filesystem::remove(trace);
}

TEST_CASE("rewrite-trace refuses malformed files and bad indices") {
  const auto bad = temp_path("bad.json");
  std::ofstream(bad)
      << R"({"version":1,"nodes":{},"groups":[{"name":"g","rewrites":[{"name":"r"}]}]})";
  const auto r = wavectl({"rewrite-trace", "info", bad.string()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("groups[0].rewrites[0]: missing field 'loc'"));
  const auto trace = temp_path("ok.json");
  REQUIRE(
      wavectl({"simplify", "a+0", "--var", "a=0:3", "--trace", trace.string(), "-q"}).exit_code ==
      0);
  const auto out_of_range = wavectl({"rewrite-trace", "show", trace.string(), "--group", "5"});
  CHECK(out_of_range.exit_code == 2);
  CHECK_THAT(out_of_range.err, Catch::Contains("has 1 groups"));
  std::filesystem::remove(bad);
  std::filesystem::remove(trace);
}

TEST_CASE("rewrite-trace contexts --json on tinygrad's rewrites.pkl equals VIZ's rewrites.jsonl") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t seen = 0;
  for (const auto &entry : std::filesystem::directory_iterator(root)) {
    const auto pkl = entry.path() / "rewrites.pkl";
    if (!std::filesystem::exists(pkl) || !std::filesystem::exists(entry.path() / "rewrites.jsonl"))
      continue;
    INFO(pkl.string());
    const auto r = wavectl({"rewrite-trace", "contexts", pkl.string(), "--json"});
    REQUIRE(r.exit_code == 0);
    std::ifstream in(entry.path() / "rewrites.jsonl");
    std::vector<nlohmann::json> expected;
    for (std::string line; std::getline(in, line);) expected.push_back(nlohmann::json::parse(line));
    CHECK(json_lines(r.out) == expected);
    const auto text = wavectl({"rewrite-trace", "contexts", pkl.string()});
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::Contains("linearize/render - 4") &&
                             Catch::Contains(std::to_string(expected.size()) + " contexts"));
    ++seen;
  }
  CHECK(seen >= 3);
}

TEST_CASE(
    "rewrite-trace contexts on a JSON trace, and on bad pickles: exit 3 naming file and offset") {
  const auto trace = temp_path("contexts.json");
  REQUIRE(wavectl({"simplify", "(a+0)*1", "--var", "a=0:8", "--trace", trace.string(), "-q"})
              .exit_code == 0);
  const auto r = wavectl({"rewrite-trace", "contexts", trace.string(), "--json"});
  REQUIRE(r.exit_code == 0);
  const auto group = json_lines(r.out).at(0);
  CHECK(group["name"] == "simplify (a+0)*1");
  CHECK(group["steps"][0]["match_count"] == 2);
  CHECK(group["steps"][0]["loc"][1].is_number_integer());
  std::filesystem::remove(trace);

  WAVESCOPE_REQUIRE_TESTDATA(dir, "tinygrad-viz/elementwise");
  const auto bad = temp_path("truncated.pkl");
  {
    std::ifstream in(dir / "rewrites.pkl", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(bad, std::ios::binary) << bytes.substr(0, 5000);
  }
  const auto t = wavectl({"rewrite-trace", "contexts", bad.string(), "--json"});
  CHECK(t.exit_code == 3);
  CHECK(t.out.empty());
  CHECK_THAT(t.err, Catch::Contains(bad.string()) && Catch::Contains("byte "));
  std::filesystem::remove(bad);

  const auto wrong = wavectl({"rewrite-trace", "contexts", (dir / "profile.pkl").string()});
  CHECK(wrong.exit_code == 3);
  CHECK_THAT(wrong.err, Catch::Contains("profile.pkl: byte ") &&
                            Catch::Contains("not a tinygrad rewrite trace"));
}
