// PMC decoding on the real corpus: every counter's sum and per-instance rows, and tinygrad's
// derived metrics, equal the reference decode stored in each capture's meta.json.

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

using namespace wavescope::trace;
using nlohmann::json;

namespace {

json read_meta(const std::filesystem::path &dir) {
  std::ifstream in(dir / "meta.json");
  return json::parse(in);
}

}  // namespace

TEST_CASE(
    "pmc: PMC sums, columns and per-instance rows equal the reference in every corpus capture") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t events = 0, counters = 0, rows = 0;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    const auto capture = Capture::open(dir);
    const auto meta = read_meta(dir);
    const auto decoded = pmc::decode_capture(capture);
    REQUIRE(decoded.size() == meta["pmc"].size());
    for (std::size_t e = 0; e < decoded.size(); ++e) {
      const auto &reference = meta["pmc"][e]["reference"]["counters"];
      const auto &d = decoded[e];
      INFO(dir.string() << " " << d.file);
      REQUIRE(d.counters.size() == reference.size());
      for (std::size_t k = 0; k < reference.size(); ++k) {
        const auto &ref = reference[k];
        const auto &c = d.counters[k];
        INFO(c.name);
        CHECK(c.name == ref["name"].get<std::string>());
        CHECK(c.sum == ref["sum"].get<std::uint64_t>());
        CHECK(c.columns() == ref["cols"].get<std::vector<std::string>>());
        REQUIRE(c.rows.size() == ref["rows"].size());
        for (std::size_t r = 0; r < c.rows.size(); ++r) {
          const auto &row = c.rows[r];
          std::vector<std::uint64_t> flat = {row.xcc, row.inst, row.se, row.sa};
          flat.insert(flat.end(), row.values.begin(), row.values.end());
          CHECK(flat == ref["rows"][r].get<std::vector<std::uint64_t>>());
        }
        rows += c.rows.size();
        ++counters;
      }
      ++events;
    }
  }
  CHECK(events == 14);
  CHECK(counters == 14 * 8);
  CHECK(rows > 0);
}

TEST_CASE("pmc: tinygrad's derived metrics equal the reference text in every corpus capture") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t compared = 0;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    const auto capture = Capture::open(dir);
    const auto meta = read_meta(dir);
    const auto decoded = pmc::decode_capture(capture);
    for (std::size_t e = 0; e < decoded.size(); ++e) {
      const auto &reference = meta["pmc"][e]["reference"]["metrics"];
      INFO(dir.string() << " " << decoded[e].file);
      REQUIRE(reference.size() == 2);
      for (const auto &[name, text] : reference.items()) {
        const auto *metric = decoded[e].metric(name);
        REQUIRE(metric != nullptr);
        CHECK(metric->text == text.get<std::string>());
        CHECK(metric->source == "tinygrad");
        ++compared;
      }
      // tinygrad's two come first, in its order.
      CHECK(decoded[e].metrics.at(0).name == "VALU utilization");
      CHECK(decoded[e].metrics.at(1).name == "SALU utilization");
    }
  }
  CHECK(compared == 28);
}

TEST_CASE(
    "pmc: every corpus counter is in its family's catalogue with the select the capture used") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t dispatches = 0;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    const auto capture = Capture::open(dir);
    for (const auto &d : pmc::decode_capture(capture)) {
      ++dispatches;
      INFO(dir.string() << " " << d.file);
      REQUIRE(d.family.has_value());
      CHECK(d.notes.empty());
      for (const auto &c : d.counters) {
        INFO(c.name);
        REQUIRE(c.info != nullptr);
        CHECK(c.info->select == c.select.value());
        CHECK(c.info->block == c.block);
        CHECK(!c.info->description.empty());
      }
    }
  }
  CHECK(dispatches == 14);  // one PMC sample per dispatch of the 12 captures
}

TEST_CASE("pmc: the gfx950 GRBM counter has one slot per XCC and the metrics use its maximum") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx950/gemm");
  const auto d = pmc::decode_capture(Capture::open(dir)).at(0);
  const auto *grbm = d.counter("GRBM_GUI_ACTIVE");
  REQUIRE(grbm != nullptr);
  CHECK(grbm->count == 8);
  CHECK(grbm->rows.size() == 8);
  CHECK(grbm->max < grbm->sum);
  const auto *tcc = d.counter("TCC_HIT");
  REQUIRE(tcc != nullptr);
  CHECK(tcc->count == 8 * 16);
  CHECK(d.metric("VALU utilization")->text == "0.1%");
  // With the sum instead of the max the metric would read 0.0%.
  const auto *valu = d.counter("SQ_INSTS_VALU");
  const double with_sum =
      100.0 * (double(valu->sum) / double(valu->count)) / (double(grbm->sum) * 4);
  CHECK(with_sum < 0.05);
}

TEST_CASE(
    "pmc: the gfx1200 sync capture shows the SQ carry-over into the second dispatch's sample") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/sync");
  const auto decoded = pmc::decode_capture(Capture::open(dir));
  REQUIRE(decoded.size() == 2);
  CHECK(decoded[0].kernel == "custom_lds_sync");
  CHECK(decoded[1].kernel == "E_32_4");
  CHECK(decoded[1].kernel_tag == 1);
  const auto *busy = decoded[1].counter("SQ_BUSY_CYCLES");
  REQUIRE(busy != nullptr);
  // Rows are (se, sa) pairs of 4 WGPs each: row 2 is SE 1 / SA 0, where the first kernel ran.
  CHECK(busy->rows.at(2).se == 1);
  CHECK(busy->rows.at(2).sa == 0);
  CHECK(busy->rows.at(2).values.at(0) != 0);
  CHECK(busy->nonzero_slots() >= 2);
}
