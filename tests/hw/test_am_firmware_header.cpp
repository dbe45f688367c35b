// Firmware headers (am-driver.md §9.2, §9.7) on synthetic blobs built here: a PSP SOS v2.0/v2.1
// container's components, a gfx v2.0 header, and clear errors for bad headers.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/firmware_header.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

namespace {
void put(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
// A SOS container: common header v2.minor, `n` components of 0x40 bytes each after 0x100.
std::vector<std::uint8_t> sos(unsigned minor, unsigned n) {
  std::vector<std::uint8_t> b(0x100 + 0x40 * n, 0);
  put(b, 0, static_cast<std::uint32_t>(b.size()));
  put(b, 4, 0x100);
  put(b, 8, 2 | minor << 16);
  put(b, 12, 13);
  put(b, 20, 0x40 * n);
  put(b, 24, 0x100);
  put(b, 32, n);
  const std::size_t desc = minor == 0 ? 0x24 : 0x28;
  for (unsigned i = 0; i < n; ++i) {
    put(b, desc + 16 * i, i + 1);
    put(b, desc + 16 * i + 8, 0x40 * i);
    put(b, desc + 16 * i + 12, 0x40);
  }
  return b;
}
}  // namespace

TEST_CASE("am firmware: PSP SOS v2.0 and v2.1 containers list their components") {
  for (unsigned minor : {0u, 1u}) {
    const auto h = parse_firmware_header(sos(minor, 6), "psp");
    CHECK(h.header_version_major == 2);
    CHECK(h.header_version_minor == minor);
    REQUIRE(h.psp_components.size() == 6);
    CHECK(h.psp_components[5].fw_type == 6);
    CHECK(h.psp_components[5].file_offset == 0x100 + 0x40 * 5);
  }
  CHECK(firmware_kind_of("psp_13_0_0_sos.bin") == "psp");
  CHECK(firmware_kind_of("gc_11_0_0_rlc.bin") == "rlc");
  CHECK(firmware_kind_of("gc_11_0_0_mec.bin") == "gfx");
  CHECK(firmware_kind_of("smu_14_0_2.bin") == "smc");
  CHECK_THROWS_AS(firmware_kind_of("foo.bin"), wavescope::Error);
}

TEST_CASE("am firmware: every version §9.7 names parses, bad headers name byte and value") {
  std::size_t parsed = 0;
  for (const auto &[kind, ma, mi, fields] :
       std::vector<std::tuple<std::string, unsigned, unsigned, std::size_t>>{{"smc", 1, 0, 1},
                                                                             {"smc", 2, 0, 3},
                                                                             {"smc", 2, 1, 3},
                                                                             {"sdma", 1, 0, 4},
                                                                             {"sdma", 1, 1, 5},
                                                                             {"sdma", 2, 0, 8},
                                                                             {"sdma", 3, 0, 3},
                                                                             {"gfx", 1, 0, 3},
                                                                             {"gfx", 2, 0, 7},
                                                                             {"imu", 1, 0, 4},
                                                                             {"rlc", 2, 0, 18},
                                                                             {"rlc", 2, 1, 31},
                                                                             {"rlc", 2, 2, 35},
                                                                             {"rlc", 2, 3, 43}}) {
    std::vector<std::uint8_t> b(0x200, 0);
    put(b, 0, 0x200);
    put(b, 4, 0x100);
    put(b, 8, ma | mi << 16);
    put(b, 20, 0x100);
    put(b, 24, 0x100);
    const auto h = parse_firmware_header(b, kind);
    CHECK(h.fields.size() == fields);
    ++parsed;
  }
  CHECK(parsed == 14);

  auto bad = sos(0, 2);
  put(bad, 0, 0x999);
  CHECK_THROWS_WITH(parse_firmware_header(bad, "psp"),
                    Contains("size_bytes at byte 0x0: expected 0x180") && Contains("found 0x999"));
  bad = sos(0, 2);
  put(bad, 8, 7);
  CHECK_THROWS_WITH(parse_firmware_header(bad, "psp"), Contains("version 7.0 at byte 0x8"));
  bad = sos(0, 2);
  put(bad, 0x24 + 16 + 12, 0x1000);
  CHECK_THROWS_WITH(parse_firmware_header(bad, "psp"), Contains("descriptor at byte 0x34"));
  bad = sos(0, 2);
  put(bad, 32, 0xFFFFFFF);
  CHECK_THROWS_WITH(parse_firmware_header(bad, "psp"), Contains("psp_fw_bin_count at byte 0x20"));
  CHECK_THROWS_AS(parse_firmware_header(std::vector<std::uint8_t>(7, 0), "gfx"), wavescope::Error);
}
