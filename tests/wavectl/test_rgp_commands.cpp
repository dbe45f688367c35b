// wavectl rgp info|export, and the capture verbs on rgptool's .rgp files against their capture
// folders; bad .rgp files give exit code 3, an error naming file and byte, and no output file.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "corpus_names.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kRgpFiles;
using wavescope::testing::replace_all;

using nlohmann::json;
using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

TEST_CASE("rgp info lists every chunk of every rgptool file") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "rgp");
  std::size_t files = 0, chunks = 0;
  for (const std::string name : kRgpFiles) {
    INFO(name);
    const auto file = (root / (name + ".rgp")).string();
    const auto r = wavectl({"rgp", "info", file, "--json"});
    REQUIRE(r.exit_code == 0);
    const auto j = json_lines(r.out).at(0);
    CHECK(j["file"] == file);
    CHECK(j["version"] == "1.5");
    const auto &list = j["chunks"];
    REQUIRE(list.size() >= 7);
    CHECK(list[0]["type"] == "CPU_INFO");
    CHECK(list[1]["type"] == "ASIC_INFO");
    CHECK(list[1]["version"] == "0.5");
    CHECK(list[3]["type"] == "SQTT_DESC");
    CHECK(list.back()["type"] == "PSO_CORRELATION");
    std::uint64_t end = 56;
    for (const auto &c : list) {
      CHECK(c["offset"] == end);  // contiguous, to the end of the file
      end += c["size"].get<std::uint64_t>();
    }
    CHECK(end == std::filesystem::file_size(file));
    chunks += list.size();
    ++files;
  }
  CHECK(files == 9);
  CHECK(chunks == 4 * 18 + 5 * 14);
  const auto text = wavectl({"rgp", "info", (root / "gfx1100_sync.rgp").string()});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("SQTT_DATA") && Catch::Contains("device 0x744c NAVI31") &&
                           Catch::Contains("note: byte 57096: code object 0 declares 1368"));
}

TEST_CASE("every capture verb prints the same on each rgptool file as on its capture folder") {
  WAVESCOPE_REQUIRE_TESTDATA(rgps, "rgp");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  const std::vector<std::vector<std::string>> verbs = {
      {"sqtt", "waves"}, {"sqtt", "insts"}, {"sqtt", "stats"}, {"sqtt", "timeline"}};
  // Kernels whose ELF (tinygrad's own packer) has no symbols: the .rgp cannot name them.
  const std::vector<std::pair<std::string, std::string>> nameless = {
      {"gfx1100_sync", "custom_lds_sync"},
      {"gfx1200_sync", "custom_lds_sync"},
      {"gfx1200_handwritten", "custom_handwritten"}};
  std::size_t compared = 0;
  for (const std::string name : kRgpFiles) {
    const auto rgp = (rgps / (name + ".rgp")).string();
    const auto folder = (folders / folder_of(name)).string();
    std::string unnamed;
    for (const auto &[file, kernel] : nameless)
      if (file == name) unnamed = kernel;
    for (const auto &verb : verbs)
      for (const bool as_json : {true, false}) {
        if (!unnamed.empty() && !as_json) continue;  // renamed text columns would not align
        INFO(name << " " << verb.back() << (as_json ? " --json" : ""));
        auto args_of = [&](const std::string &source) {
          auto args = verb;
          args.push_back(source);
          if (as_json) args.push_back("--json");
          return args;
        };
        auto a = wavectl(args_of(rgp));
        auto b = wavectl(args_of(folder));
        REQUIRE(a.exit_code == 0);
        REQUIRE(b.exit_code == 0);
        replace_all(a.out, rgp, "SOURCE");
        replace_all(b.out, folder, "SOURCE");
        if (!unnamed.empty()) replace_all(a.out, "\"k0\"", "\"" + unnamed + "\"");
        if (!as_json && name.starts_with("gfx1200")) replace_all(b.out, "(gfx1200", "(gfx1201");
        CHECK(a.out == b.out);
        ++compared;
      }
  }
  CHECK(compared == 9 * 4 * 2 - 3 * 4);
}

TEST_CASE("rgp export writes a file that reads back, and refuses bad input leaving no file") {
  WAVESCOPE_REQUIRE_TESTDATA(folder, "sqtt/gfx1100/sync");
  WAVESCOPE_REQUIRE_TESTDATA(cdna, "sqtt/gfx950/gemm");
  WAVESCOPE_REQUIRE_TESTDATA(rgp, "rgp/gfx1100_gemm.rgp");
  const wavescope::testing::TempDir temp;
  const auto out = (temp.path / "sync.rgp").string();
  const auto r = wavectl({"rgp", "export", folder.string(), "-o", out, "--json"});
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["file"] == out);
  CHECK(j["shader_engines"] == 6);
  CHECK(j["dispatches"] == 2);
  CHECK(j["queue_events"] == 2);
  CHECK(j["bytes"] == std::filesystem::file_size(out));
  const auto waves = wavectl({"sqtt", "waves", out, "--json"});
  const auto expected = wavectl({"sqtt", "waves", folder.string(), "--json"});
  REQUIRE(waves.exit_code == 0);
  auto a = waves.out, b = expected.out;
  replace_all(a, out, "SOURCE");
  replace_all(b, folder.string(), "SOURCE");
  CHECK(a == b);  // names too: the export carries them in PSO_CORRELATION

  const auto refused = (temp.path / "cdna.rgp").string();
  const auto c = wavectl({"rgp", "export", cdna.string(), "-o", refused});
  CHECK(c.exit_code == 3);
  CHECK_THAT(c.err, Catch::StartsWith("error: " + cdna.string()) && Catch::Contains("CDNA"));
  CHECK(!std::filesystem::exists(refused));

  const auto bytes = wavescope::testing::read_file(rgp);
  const auto truncated = temp.path / "truncated.rgp";
  std::ofstream(truncated, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), 30000);
  for (const std::vector<std::string> &verb :
       {std::vector<std::string>{"rgp", "info"}, {"sqtt", "waves"}, {"sqtt", "stats"}}) {
    auto args = verb;
    args.push_back(truncated.string());
    const auto v = wavectl(args);
    INFO(verb.back());
    CHECK(v.exit_code == 3);
    CHECK_THAT(v.err, Catch::StartsWith("error: " + truncated.string() + ": byte 27584: "));
  }
  const auto from_bad = (temp.path / "from_bad.rgp").string();
  const auto e = wavectl({"rgp", "export", truncated.string(), "-o", from_bad});
  CHECK(e.exit_code == 3);
  CHECK(!std::filesystem::exists(from_bad));
}
