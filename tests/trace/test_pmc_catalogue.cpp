// The counter catalogue: families, lookups by name and select, coverage per family.

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "wavescope/trace/pmc/counter_catalogue.hpp"

using namespace wavescope::trace::pmc;

TEST_CASE("pmc: processors map to counter families") {
  CHECK(counter_family_for("gfx1100") == CounterFamily::Gfx11);
  CHECK(counter_family_for("gfx1103") == CounterFamily::Gfx11);
  CHECK(counter_family_for("gfx11") == CounterFamily::Gfx11);
  CHECK(counter_family_for("gfx1201") == CounterFamily::Gfx12);
  CHECK(counter_family_for("gfx12") == CounterFamily::Gfx12);
  CHECK(counter_family_for("gfx950") == CounterFamily::Gfx950);
  CHECK_FALSE(counter_family_for("gfx942").has_value());
  CHECK_FALSE(counter_family_for("gfx110").has_value());
  CHECK_FALSE(counter_family_for("").has_value());
  CHECK(to_string(CounterFamily::Gfx12) == "gfx12");
}

TEST_CASE("pmc: tinygrad's default counters have the selects of spec §16.1 in each family") {
  struct Expect {
    CounterFamily family;
    const char *name;
    const char *block;
    std::uint32_t select;
  };
  const Expect table[] = {
      {CounterFamily::Gfx11, "SQ_BUSY_CYCLES", "SQ", 3},
      {CounterFamily::Gfx11, "SQ_INSTS_VALU", "SQ", 62},
      {CounterFamily::Gfx11, "SQ_INSTS_SALU", "SQ", 58},
      {CounterFamily::Gfx11, "SQC_LDS_IDX_ACTIVE", "SQ", 261},
      {CounterFamily::Gfx11, "SQC_LDS_BANK_CONFLICT", "SQ", 256},
      {CounterFamily::Gfx11, "GRBM_GUI_ACTIVE", "GRBM", 2},
      {CounterFamily::Gfx11, "GL2C_HIT", "GL2C", 42},
      {CounterFamily::Gfx11, "GL2C_MISS", "GL2C", 43},
      {CounterFamily::Gfx12, "SQ_INSTS_VALU", "SQ", 50},
      {CounterFamily::Gfx12, "SQ_INSTS_SALU", "SQ", 46},
      {CounterFamily::Gfx12, "SQC_LDS_IDX_ACTIVE", "SQ", 293},
      {CounterFamily::Gfx12, "SQC_LDS_BANK_CONFLICT", "SQ", 288},
      {CounterFamily::Gfx12, "GL2C_HIT", "GL2C", 41},
      {CounterFamily::Gfx12, "GL2C_MISS", "GL2C", 42},
      {CounterFamily::Gfx950, "SQ_INSTS_VALU", "SQ", 26},
      {CounterFamily::Gfx950, "SQ_INSTS_SALU", "SQ", 62},
      {CounterFamily::Gfx950, "SQ_LDS_IDX_ACTIVE", "SQ", 147},
      {CounterFamily::Gfx950, "SQ_LDS_BANK_CONFLICT", "SQ", 142},
      {CounterFamily::Gfx950, "GRBM_GUI_ACTIVE", "GRBM", 2},
      {CounterFamily::Gfx950, "TCC_HIT", "TCC", 21},
      {CounterFamily::Gfx950, "TCC_MISS", "TCC", 23},
  };
  for (const auto &e : table) {
    INFO(to_string(e.family) << " " << e.name);
    const auto *c = CounterCatalogue::get(e.family).find(e.name);
    REQUIRE(c != nullptr);
    CHECK(c->block == e.block);
    CHECK(c->select == e.select);
    CHECK(CounterCatalogue::get(e.family).find_select(e.block, e.select) == c);
  }
}

TEST_CASE("pmc: each family covers the commonly used blocks") {
  const std::set<std::string_view> rdna = {"GL2C", "GRBM", "SQ", "TA", "TCP", "TD"};
  for (auto family : {CounterFamily::Gfx11, CounterFamily::Gfx12}) {
    const auto blocks = CounterCatalogue::get(family).blocks();
    CHECK(std::set<std::string_view>(blocks.begin(), blocks.end()) == rdna);
    CHECK(CounterCatalogue::get(family).counters().size() >= 80);
  }
  const auto cdna = CounterCatalogue::get(CounterFamily::Gfx950).blocks();
  for (auto block : {"SQ", "TA", "TD", "TCP", "TCC", "GRBM", "SPI", "CPC"})
    CHECK(std::find(cdna.begin(), cdna.end(), block) != cdna.end());
  CHECK(CounterCatalogue::get(CounterFamily::Gfx950).counters().size() == 429);
}

TEST_CASE("pmc: catalogues are sorted, unique by name and by (block, select), and described") {
  for (auto family : {CounterFamily::Gfx11, CounterFamily::Gfx12, CounterFamily::Gfx950}) {
    const auto &catalogue = CounterCatalogue::get(family);
    INFO(to_string(family));
    const auto counters = catalogue.counters();
    CHECK(std::is_sorted(counters.begin(), counters.end(),
                         [](const auto &a, const auto &b) { return a.name < b.name; }));
    std::set<std::pair<std::string_view, std::uint32_t>> selects;
    for (std::size_t i = 0; i < counters.size(); ++i) {
      INFO(counters[i].name);
      if (i) CHECK(counters[i - 1].name != counters[i].name);
      CHECK(!counters[i].description.empty());
      CHECK(!counters[i].block.empty());
      CHECK(catalogue.find(counters[i].name) == &counters[i]);
      selects.insert({counters[i].block, counters[i].select});
    }
    // Aliases exist in rocprofiler's data (two names for one select); most entries are distinct.
    CHECK(selects.size() + 16 >= counters.size());
  }
}

TEST_CASE("pmc: unknown names and blocks find nothing") {
  const auto &catalogue = CounterCatalogue::get(CounterFamily::Gfx11);
  CHECK(catalogue.find("NO_SUCH_COUNTER") == nullptr);
  CHECK(catalogue.find("") == nullptr);
  CHECK(catalogue.find("TCC_HIT") == nullptr);  // a CDNA name
  CHECK(catalogue.find_select("SQ", 0xFFFF) == nullptr);
  CHECK(catalogue.in_block("TCC").empty());
  CHECK(catalogue.in_block("TCP").size() >= 10);
}

TEST_CASE("pmc: gfx12 GL2C selects where AMD's enum header disagrees carry a caveat") {
  const auto &catalogue = CounterCatalogue::get(CounterFamily::Gfx12);
  const auto *hit = catalogue.find("GL2C_HIT");
  REQUIRE(hit != nullptr);
  CHECK(hit->source == CounterSource::Rocprofiler);
  CHECK(hit->caveat.find("39") != std::string_view::npos);
  const auto *valu = catalogue.find("SQ_INSTS_VALU");
  CHECK(valu->caveat.empty());
  const auto *tcp = CounterCatalogue::get(CounterFamily::Gfx11).find("TCP_REQ_MISS");
  REQUIRE(tcp != nullptr);
  CHECK(tcp->source == CounterSource::AmdEnumHeader);
  CHECK(tcp->select == 18);
}
