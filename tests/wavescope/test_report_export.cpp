// File ▸ Export Reports as JSON: what the app writes for a document equals what `wavectl --json`
// prints for the same file, checked against wavectl's committed golden outputs (tests/golden/,
// which the golden tests check against wavectl itself): a capture's sqtt stats and insts, a code
// object's codeobj, a profile's profile info; the export adds `sqtt waves --instructions`.

#include <catch2/catch.hpp>

#include <QDir>
#include <QTemporaryDir>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/capture_document.hpp"
#include "app/code_object_document.hpp"
#include "app/profile_document.hpp"
#include "app/report_export.hpp"
#include "gui_test_app.hpp"
#include "testdata.hpp"

using namespace wavescope::gui;
namespace fs = std::filesystem;

namespace {

// wavectl's stdout in a golden file (everything after its "$ wavectl ..." line), with the corpus
// root written back in place of @DATA@.
std::string golden_stdout(const std::string &family, const std::string &name) {
  std::ifstream in(wavescope::testing::source_root() / "tests/golden" / family / (name + ".out"));
  REQUIRE(in);
  std::string first, rest;
  std::getline(in, first);
  REQUIRE(first.rfind("$ wavectl ", 0) == 0);
  std::ostringstream out;
  out << in.rdbuf();
  rest = out.str();
  const std::string data = wavescope::testing::testdata_root().string();
  for (std::size_t at; (at = rest.find("@DATA@")) != std::string::npos;) rest.replace(at, 6, data);
  return rest;
}

const ExportedReport &report_named(const std::vector<ExportedReport> &reports,
                                   const std::string &name) {
  for (const auto &r : reports)
    if (r.name == name) return r;
  FAIL("no report " << name);
  throw;
}

}  // namespace

TEST_CASE("a capture's exported reports are wavectl's sqtt stats, waves and insts") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/empty");
  wavescope::testing::gui_app();
  const auto doc = load_capture(QString::fromStdString(dir.string()));
  const auto reports = document_reports(*doc);
  REQUIRE(reports.size() == 3);
  CHECK(report_named(reports, "sqtt-stats").json ==
        golden_stdout("sqtt", "stats_gfx1100_empty_json"));
  CHECK(report_named(reports, "sqtt-insts").json ==
        golden_stdout("sqtt", "insts_gfx1100_empty_json"));
  // waves --instructions: one JSON object per wave, each traced one with its instruction stream.
  std::istringstream lines(report_named(reports, "sqtt-waves").json);
  std::size_t waves = 0, with_insts = 0;
  for (std::string line; std::getline(lines, line); ++waves)
    if (!nlohmann::json::parse(line).value("insts", nlohmann::json::array()).empty()) ++with_insts;
  CHECK(waves > 0);
  CHECK(with_insts > 0);
}

TEST_CASE(
    "a code object's and a profile's exported reports are wavectl's codeobj and profile info") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/empty/program.elf");
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/elementwise/profile.pkl");
  wavescope::testing::gui_app();
  const auto code = load_code_object(QString::fromStdString(elf.string()));
  const auto code_reports = document_reports(*code);
  REQUIRE(code_reports.size() == 1);
  CHECK(code_reports[0].json == golden_stdout("isa", "codeobj_gfx1100_empty_json"));
  const auto profile = load_profile(QString::fromStdString(pkl.string()));
  const auto profile_reports = document_reports(*profile);
  REQUIRE(profile_reports.size() == 1);
  CHECK(profile_reports[0].json == golden_stdout("profile", "info_elementwise_json"));
}

TEST_CASE("export writes one file per report, named after the document, and refuses a bad folder") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/empty/program.elf");
  wavescope::testing::gui_app();
  const auto code = load_code_object(QString::fromStdString(elf.string()));
  QTemporaryDir out;
  const auto written = export_reports(*code, out.path());
  REQUIRE(written.size() == 1);
  CHECK(written[0] == out.path() + "/program.elf.codeobj.json");
  std::ifstream in(written[0].toStdString());
  std::ostringstream text;
  text << in.rdbuf();
  CHECK(text.str() == golden_stdout("isa", "codeobj_gfx1100_empty_json"));
  CHECK_THROWS_AS(export_reports(*code, out.path() + "/no/such/folder"), wavescope::Error);
}
