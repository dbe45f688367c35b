// IP discovery (am-driver.md §3): the synthetic ROMs of every chip profile parse back to what
// built them; the tinygrad-mock layout matches §3.3 byte for byte in size and offsets; bad
// signatures, checksums and offsets give errors naming the byte and the expected/found values.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include <nlohmann/json.hpp>

#include "wavescope/hw/am/discovery_report.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

namespace {
std::uint16_t u16(const std::vector<std::uint8_t> &b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}
}  // namespace

TEST_CASE("am discovery: the tinygrad-mock ROM has the §3.3 layout and §19.1 content") {
  const auto rom = build_discovery_rom(chip_profile("tinygrad-mock"));
  CHECK(rom.size() == 636);
  CHECK(u16(rom, 12) == 0x3C);   // IP header
  CHECK(u16(rom, 20) == 0x210);  // GC info
  const auto t = parse_ip_discovery(rom);
  CHECK(t.ip_version == 4);
  CHECK_FALSE(t.base_addr_64_bit);
  REQUIRE(t.dies.size() == 1);
  REQUIRE(t.dies[0].ips.size() == 8);
  const auto &gc = t.dies[0].ips[0];
  CHECK(hwip_names(gc.hw_id) == std::vector<std::string>{"GC"});
  CHECK((gc.major == 12 && gc.minor == 0 && gc.revision == 0));
  REQUIRE(gc.bases.size() == 10);
  CHECK(gc.bases[1] == 0xA000);
  CHECK(gc.bases[4] == 0);
  const auto &nb = t.dies[0].ips[3];
  CHECK(hwip_names(nb.hw_id) == std::vector<std::string>{"NBIO", "NBIF"});
  CHECK(nb.bases[2] == 0xD20);
  CHECK((nb.major == 6 && nb.minor == 3 && nb.revision == 1));
  REQUIRE(t.has_gc_info);
  CHECK((t.gc_info.version_major == 2 && t.gc_info.version_minor == 1));
  CHECK(t.gc_info.fields.size() == 24);
  CHECK(t.gc_info.field("gc_num_se") == 2);
  CHECK(t.gc_info.field("gc_num_cu_per_sh") == 8);
  CHECK(t.gc_info.field("gc_wave_size") == 32);
  CHECK(t.gc_info.field("gc_lds_size") == 64);
  CHECK(t.harvest.empty());
}

TEST_CASE("am discovery: 64-bit bases put GC info at 0x350, harvest {GC, 1} is read back") {
  auto p = chip_profile("tinygrad-mock");
  p.base_addr_64_bit = true;
  auto rom = build_discovery_rom(p);
  CHECK(rom.size() == 956);
  CHECK(u16(rom, 20) == 0x350);
  CHECK(parse_ip_discovery(rom).base_addr_64_bit);
  p.harvest = {{11, 1}};
  const auto t = parse_ip_discovery(build_discovery_rom(p));
  REQUIRE(t.harvest.size() == 1);
  CHECK((t.harvest[0].hw_id == 11 && t.harvest[0].instance == 1));
}

TEST_CASE("am discovery: every profile and every GC info version round-trips") {
  std::size_t ips_seen = 0;
  for (const auto &name : chip_profile_names()) {
    const auto p = chip_profile(name);
    const auto t = parse_ip_discovery(build_discovery_rom(p));
    REQUIRE(t.dies.size() == p.dies.size());
    for (std::size_t d = 0; d < p.dies.size(); ++d) {
      REQUIRE(t.dies[d].ips.size() == p.dies[d].ips.size());
      for (std::size_t i = 0; i < p.dies[d].ips.size(); ++i) {
        auto bases = t.dies[d].ips[i].bases;
        CHECK(bases.size() == std::max<std::size_t>(p.dies[d].ips[i].bases.size(), p.pad_bases));
        bases.resize(p.dies[d].ips[i].bases.size());
        CHECK(bases == p.dies[d].ips[i].bases);
        CHECK(t.dies[d].ips[i].instance == p.dies[d].ips[i].instance);
        ++ips_seen;
      }
    }
    CHECK(t.harvest.size() == p.harvest.size());
  }
  CHECK(ips_seen == 8 + 8 + 8 + 18 + 18);
  const auto mi = parse_ip_discovery(build_discovery_rom(chip_profile("mi300x")));
  CHECK(mi.dies.size() == 4);
  CHECK(mi.dies[3].ips[0].bases[0] == 0x3'0000'1260);  // 64-bit base on AID 3
  for (const auto &[major, minor, fields] :
       {std::tuple{1, 0, 19}, {1, 1, 22}, {1, 2, 30}, {1, 3, 38}, {2, 0, 17}, {2, 1, 24}}) {
    auto p = chip_profile("navi31");
    p.gc_major = static_cast<std::uint16_t>(major);
    p.gc_minor = static_cast<std::uint16_t>(minor);
    const auto t = parse_ip_discovery(build_discovery_rom(p));
    CHECK(t.gc_info.fields.size() == static_cast<std::size_t>(fields));
    CHECK(t.gc_info.field("gc_num_se") == 6);
  }
}

TEST_CASE("am discovery: bad tables name the byte offset and expected vs found") {
  const auto good = build_discovery_rom(chip_profile("navi31"));
  auto bad = good;
  bad[0] ^= 1;
  CHECK_THROWS_WITH(parse_ip_discovery(bad),
                    Contains("binary signature at byte 0x0: expected 0x28211407, "
                             "found 0x28211406"));
  bad = good;
  bad[0x3C] = 0;
  CHECK_THROWS_WITH(parse_ip_discovery(bad, {false}),
                    Contains("IP discovery signature at byte 0x3C: expected 0x53445049"));
  bad = good;
  bad[0x95] ^= 0xFF;  // inside the first IP entry
  CHECK_THROWS_WITH(parse_ip_discovery(bad), Contains("binary checksum at byte 0x8"));
  bad = good;
  bad[12] = 0xF0;  // IP header offset past the end
  bad[13] = 0xFF;
  CHECK_THROWS_WITH(parse_ip_discovery(bad, {false}),
                    Contains("IP discovery header at byte 0xFFF0 (+0x50) is past the end"));
  CHECK_THROWS_AS(parse_ip_discovery(std::vector<std::uint8_t>(10, 0)), wavescope::Error);
  CHECK_THROWS_AS(chip_profile("navi99"), wavescope::Error);
}

TEST_CASE("am discovery: the report printers show versions, bases, harvest and GC info") {
  const auto t = parse_ip_discovery(build_discovery_rom(chip_profile("mi300x-harvest")));
  const auto json = nlohmann::json::parse(to_json(DiscoveryReport{"profile:mi300x-harvest", t}));
  CHECK(json["dies"].size() == 4);
  CHECK(json["dies"][0]["ips"][0]["version"] == "9.4.3");
  CHECK(json["harvest"][0]["instance"] == 1);
  CHECK(json["gc_info"]["gc_num_cu_per_sh"] == 10);
  const auto text = to_text(DiscoveryReport{"x", t});
  CHECK_THAT(text, Contains("harvested: hw_id 11 instance 1"));
  CHECK_THAT(text, Contains("MMHUB        hw_id  34 inst 3 v1.8.0  bases 0x30001A000"));
}
