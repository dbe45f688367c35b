// The register database's printers: `regs find --json` prints one object per register with the
// header's spelling and dword offset; `regs decode` prints every field (or the one named).

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>

#include "wavescope/hw/regs/register_report.hpp"

using namespace wavescope::hw::regs;
using Catch::Matchers::Contains;

TEST_CASE("regdb printers: find prints one JSON object per register") {
  const auto map = RegisterMap::for_asic("navi31");
  const RegisterFindReport report{"gc.SCRATCH_REG?", map.description(),
                                  find_registers(map, "gc.SCRATCH_REG?")};
  std::istringstream lines(to_json(report));
  std::string line;
  std::size_t n = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    CHECK(j.at("ip") == "gc");
    CHECK(j.at("name") == "regSCRATCH_REG" + std::to_string(n));
    CHECK(j.at("offset") == 0x2040 + n);
    CHECK(j.at("segment") == 1);
    REQUIRE(j.at("fields").size() == 1);
    CHECK(j["fields"][0] ==
          nlohmann::json{{"name", "SCRATCH_REG" + std::to_string(n)}, {"lo", 0}, {"hi", 31}});
    ++n;
  }
  CHECK(n == 8);
  CHECK_THAT(to_text(report), Contains("8 registers in navi31"));
  const RegisterFindReport none{"NOPE_NOPE", "navi31", {}};
  CHECK(to_json(none).empty());
  CHECK(to_text(none) == "no register matches 'NOPE_NOPE' in navi31\n");
}

TEST_CASE("regdb printers: decode prints every field, or the one named") {
  const auto map = RegisterMap::for_asic("navi31");
  const RegisterDecodeReport all{resolve_register(map, "gc.CP_RB0_CNTL"), 0x30A};
  const auto j = nlohmann::json::parse(to_json(all));
  CHECK(j.at("name") == "regCP_RB0_CNTL");
  CHECK(j.at("value") == 0x30A);
  CHECK(j.at("fields").size() == all.ref.reg->fields.size());
  CHECK(j["fields"][0] ==
        nlohmann::json{{"name", "RB_BUFSZ"}, {"lo", 0}, {"hi", 5}, {"value", 10}});
  CHECK_THAT(to_text(all), Contains("RB_BLKSZ [13:8]") && Contains("= 0x3"));
  const RegisterDecodeReport one{resolve_register(map, "gc.CP_RB0_CNTL.RB_BLKSZ"), 0x30A};
  const auto k = nlohmann::json::parse(to_json(one));
  REQUIRE(k.at("fields").size() == 1);
  CHECK(k["fields"][0]["value"] == 3);
}
