// wavectl pmc on real corpus captures (tables, --instances, --kernel, --json against the
// meta.json references), the catalogue listing, and bad input.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

TEST_CASE("pmc: wavectl pmc prints a counter table with descriptions and the metrics") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  const auto r = wavectl({"pmc", dir.string()});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("pmc_0.bin: kernel r_32_32_16_2 (tag 0), gfx1100 (gfx11 catalogue)"));
  CHECK_THAT(r.out, Catch::Contains("SQ_INSTS_VALU          SQ      30720"));
  CHECK_THAT(r.out, Catch::Contains("The number of VALU (Vector ALU) instructions issued"));
  CHECK_THAT(r.out, Catch::Contains("VALU utilization    0.1%"));
  CHECK_THAT(r.out, Catch::Contains("L2 hit rate"));
  CHECK(r.err.empty());
}

TEST_CASE("pmc: wavectl pmc --instances adds the per-instance rows") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/plus");
  const auto r = wavectl({"pmc", dir.string(), "--instances"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("SQ_BUSY_CYCLES (SQ): 1 x 1 x 6 x 2 x 4"));
  CHECK_THAT(r.out, Catch::Contains("XCC  INST  SE  SA"));
  CHECK_THAT(r.out, Catch::Contains("WGP:3"));
  CHECK_THAT(r.out, Catch::Contains("GL2C_HIT (GL2C): 1 x 32 x 1 x 1 x 1"));
}

TEST_CASE("pmc: wavectl pmc --json equals the meta.json reference for every corpus capture") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t dispatches = 0;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    INFO(dir.string());
    const auto r = wavectl({"pmc", dir.string(), "--json"});
    REQUIRE(r.exit_code == 0);
    std::ifstream in(dir / "meta.json");
    const auto meta = nlohmann::json::parse(in);
    const auto lines = json_lines(r.out);
    REQUIRE(lines.size() == meta["pmc"].size());
    for (std::size_t e = 0; e < lines.size(); ++e) {
      const auto &line = lines[e];
      const auto &reference = meta["pmc"][e]["reference"];
      CHECK(line["file"] == meta["pmc"][e]["file"]);
      CHECK(line["kernel"] == meta["pmc"][e]["program"]);
      REQUIRE(line["counters"].size() == reference["counters"].size());
      for (std::size_t k = 0; k < line["counters"].size(); ++k) {
        const auto &c = line["counters"][k];
        CHECK(c["name"] == reference["counters"][k]["name"]);
        CHECK(c["sum"] == reference["counters"][k]["sum"]);
        CHECK(c["cols"] == reference["counters"][k]["cols"]);
        CHECK(c["rows"] == reference["counters"][k]["rows"]);
        CHECK(c["known"] == true);
      }
      for (const auto &[name, text] : reference["metrics"].items()) {
        const auto &metrics = line["metrics"];
        const auto it = std::find_if(metrics.begin(), metrics.end(),
                                     [&](const auto &m) { return m["name"] == name; });
        REQUIRE(it != metrics.end());
        CHECK((*it)["text"] == text);
      }
      CHECK(line["notes"].empty());
      ++dispatches;
    }
  }
  CHECK(dispatches == 14);
}

TEST_CASE("pmc: wavectl pmc --kernel selects dispatches by name or tag") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/sync");
  const auto by_name = wavectl({"pmc", dir.string(), "--kernel", "E_32_4", "--json"});
  REQUIRE(by_name.exit_code == 0);
  const auto lines = json_lines(by_name.out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["file"] == "pmc_1.bin");
  CHECK(lines[0]["family"] == "gfx12");
  const auto by_tag = wavectl({"pmc", dir.string(), "--kernel", "0", "--json"});
  REQUIRE(by_tag.exit_code == 0);
  CHECK(json_lines(by_tag.out).at(0)["kernel"] == "custom_lds_sync");
  const auto none = wavectl({"pmc", dir.string(), "--kernel", "nope"});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("no PMC sample for kernel 'nope' (kernels: "
                                       "custom_lds_sync (tag 0), E_32_4 (tag 1))"));
}

TEST_CASE("pmc: wavectl pmc --counters lists a family's catalogue, optionally one block") {
  const auto all = wavectl({"pmc", "--counters", "gfx950", "--json"});
  REQUIRE(all.exit_code == 0);
  CHECK(json_lines(all.out).size() == 429);
  const auto tcp = wavectl({"pmc", "--counters", "gfx1100", "--block", "TCP", "--json"});
  REQUIRE(tcp.exit_code == 0);
  const auto lines = json_lines(tcp.out);
  REQUIRE(!lines.empty());
  for (const auto &l : lines) {
    CHECK(l["block"] == "TCP");
    CHECK(l["family"] == "gfx11");
  }
  const auto text = wavectl({"pmc", "--counters", "gfx12", "--block", "GL2C"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("GL2C_HIT"));
  CHECK_THAT(text.out, Catch::Contains("[!]"));
}

TEST_CASE("pmc: wavectl pmc refuses bad arguments with a usage error") {
  CHECK(wavectl({"pmc"}).exit_code == 2);
  const auto family = wavectl({"pmc", "--counters", "gfx906"});
  CHECK(family.exit_code == 2);
  CHECK_THAT(family.err, Catch::Contains("no counter catalogue for 'gfx906'"));
  const auto block = wavectl({"pmc", "--counters", "gfx11", "--block", "TCC"});
  CHECK(block.exit_code == 2);
  CHECK_THAT(block.err,
             Catch::Contains("has no block 'TCC' (blocks: GL2C, GRBM, SQ, TA, TCP, TD)"));
  const auto help = wavectl({"pmc", "--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("\"counters\":[{\"name\""));
}

namespace {

// A copy of a corpus capture whose meta.json `edit` changes; removed when it goes out of scope.
struct EditedCapture {
  wavescope::testing::TempDir temp;
  std::filesystem::path dir = temp.path;
  template <typename Edit> EditedCapture(const std::filesystem::path &src, Edit edit) {
    for (const auto &entry : std::filesystem::directory_iterator(src))
      std::filesystem::copy(entry.path(), dir / entry.path().filename());
    std::ifstream in(dir / "meta.json");
    auto meta = nlohmann::json::parse(in);
    in.close();
    edit(meta);
    std::ofstream(dir / "meta.json") << meta.dump();
  }
};

}  // namespace

TEST_CASE("pmc: wavectl pmc names the schedule entry of a zero instance count") {
  WAVESCOPE_REQUIRE_TESTDATA(src, "sqtt/gfx1100/plus");
  const EditedCapture capture(src, [](auto &meta) { meta["pmc"][0]["sched"][1]["se"] = 0; });
  const auto r = wavectl({"pmc", capture.dir.string()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err,
             Catch::Contains("error: pmc_0.bin: sched[1] (SQ_INSTS_VALU): the se count is 0"));
}

TEST_CASE("pmc: wavectl pmc refuses a schedule that runs past a short sample buffer") {
  WAVESCOPE_REQUIRE_TESTDATA(src, "sqtt/gfx1100/plus");
  const EditedCapture capture(src, [](auto &meta) { meta["pmc"][0]["size"] = 1024; });
  std::filesystem::resize_file(capture.dir / "pmc_0.bin", 1024);
  const auto r = wavectl({"pmc", capture.dir.string()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("sched[2] (SQ_INSTS_SALU)"));
  CHECK_THAT(r.err, Catch::Contains("past the 1024-byte buffer"));
}

TEST_CASE("pmc: wavectl pmc shows notes for a select the catalogue disagrees with") {
  WAVESCOPE_REQUIRE_TESTDATA(src, "sqtt/gfx1100/plus");
  const EditedCapture capture(src, [](auto &meta) { meta["pmc"][0]["sched"][1]["perf_sel"] = 50; });
  const auto r = wavectl({"pmc", capture.dir.string()});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("note: pmc_0.bin: sched[1] (SQ_INSTS_VALU): programmed with "
                                    "select 50, the gfx11 catalogue says 62"));
}

TEST_CASE("pmc: wavectl pmc on a folder that is not a capture fails cleanly") {
  const auto r = wavectl({"pmc", "/nonexistent/capture"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::StartsWith("error: "));
}
