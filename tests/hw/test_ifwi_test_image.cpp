// The synthesized Navi31 IFWI image (navi31-flash.md §10.12) against the spec's test vectors,
// reference hashes, byte checks and stated properties.

#include <catch2/catch.hpp>

#include <random>

#include <fmt/format.h>
#include <zlib.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/ifwi/checksums.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

using namespace wavescope::hw::ifwi;
using wavescope::sha256_hex;

namespace {

std::string hex_dwords(std::span<const std::uint8_t> bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i && i % 4 == 0) out += ' ';
    out += fmt::format("{:02x}", bytes[i]);
  }
  return out;
}

bool all_ff(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xFF; });
}

}  // namespace

TEST_CASE("xorshift byte stream matches the spec's test vector") {
  CHECK(xorshift_bytes(1, 8) ==
        std::vector<std::uint8_t>{0x21, 0x20, 0x04, 0x00, 0x01, 0x06, 0x08, 0x04});
  CHECK(xorshift_bytes(0, 4) != xorshift_bytes(1, 4));  // seed 0 is replaced, not a stuck stream
  CHECK(xorshift_bytes(7, 5).size() == 5);
}

TEST_CASE("Fletcher-32 matches the spec's test vector") {
  std::vector<std::uint8_t> bytes(16);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
  CHECK(fletcher32(bytes) == 0xCCA84038u);
}

TEST_CASE("Fletcher-32 equals its word-by-word definition on every kind of length") {
  // The definition (spec §10.12): both sums reduced mod 0xFFFF after every 16-bit word.
  const auto by_definition = [](std::span<const std::uint8_t> bytes) {
    std::uint32_t c0 = 0xFFFF, c1 = 0xFFFF;
    for (std::size_t i = 0; i < bytes.size(); i += 2) {
      c0 = (c0 + (bytes[i] | (i + 1 < bytes.size() ? bytes[i + 1] << 8 : 0u))) % 0xFFFF;
      c1 = (c1 + c0) % 0xFFFF;
    }
    return c1 << 16 | c0;
  };
  std::mt19937 rng(11);
  std::vector<std::uint8_t> big(0x200001);
  for (auto &b : big) b = static_cast<std::uint8_t>(rng());
  std::size_t compared = 0;
  for (const std::size_t length : std::initializer_list<std::size_t>{
           0, 1, 2, 3, 255, 0x1FFFF, 0x20000, 0x20001, 0x40003, 0x200000, 0x200001}) {
    const std::span<const std::uint8_t> bytes(big.data(), length);
    REQUIRE(fletcher32(bytes) == by_definition(bytes));
    ++compared;
  }
  std::vector<std::uint8_t> all_ff(0x30000, 0xFF);  // the largest words, where sums grow fastest
  CHECK(fletcher32(all_ff) == by_definition(all_ff));
  CHECK(compared == 11);
}

TEST_CASE("CRC-32 agrees with zlib on random data of every small length") {
  std::mt19937 rng(5);
  for (std::size_t length = 0; length < 300; ++length) {
    std::vector<std::uint8_t> bytes(length);
    for (auto &b : bytes) b = static_cast<std::uint8_t>(rng());
    const auto expected = ::crc32(::crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(length));
    REQUIRE(crc32(bytes) == expected);
  }
}

TEST_CASE("default test image has the reference SHA-256") {
  const auto image = make_test_ifwi_image();
  REQUIRE(image.size() == 0x200000);
  CHECK(sha256_hex(image) == "b5596d9a2fe5f20f94973677b7a8f8fcb113e52cb00236f77ef1103d7bf40cf9");
}

TEST_CASE("small-profile test image has the reference SHA-256") {
  TestImageOptions options;
  options.slot_size = 0x40000;
  CHECK(sha256_hex(make_test_ifwi_image(options)) ==
        "91f56da49cf3aaf94e668bf477a33f1b56146f87ada352da8694fe63c06f966c");
}

TEST_CASE("test image $PSP directory and ISH A match the spec's byte checks") {
  const auto image = make_test_ifwi_image();
  const std::span<const std::uint8_t> img(image);
  CHECK(hex_dwords(img.subspan(0x2000, 0x30)) ==
        "24505350 bd526060 02000000 00000000 3c010000 20000000 00200100 00000000 3d010000 "
        "20000000 00300100 00000000");
  CHECK(hex_dwords(img.subspan(0x12000, 0x20)) ==
        "c1aed2c9 01000000 00000000 00000000 00000200 00000000 00000c00 ffffffff");
  CHECK(std::equal(img.begin() + 0x2000, img.begin() + 0x2030, img.begin() + 0x3000));
}

TEST_CASE("test image has the stated number of non-blank pages and sectors") {
  const auto image = make_test_ifwi_image();
  const std::span<const std::uint8_t> img(image);
  int pages = 0, sectors = 0;
  for (std::size_t p = 0; p < 8192; ++p) pages += !all_ff(img.subspan(p * 256, 256));
  for (std::size_t s = 0; s < 512; ++s) sectors += !all_ff(img.subspan(s * 4096, 4096));
  CHECK(pages == 1083);
  CHECK(sectors == 78);
  CHECK(all_ff(img.subspan(0x1EF000, 0x1000)));
}

TEST_CASE("test image partitions are identical copies") {
  const auto image = make_test_ifwi_image();
  CHECK(std::equal(image.begin() + 0x20000, image.begin() + 0x20000 + 0xC0000,
                   image.begin() + 0x100000));
}

TEST_CASE("test image refuses slot sizes outside the allowed range") {
  for (const std::uint32_t bad : {0x2F000u, 0xE1000u, 0x40001u}) {
    TestImageOptions options;
    options.slot_size = bad;
    REQUIRE_THROWS_AS(make_test_ifwi_image(options), wavescope::Error);
  }
}

TEST_CASE("test image corruption names round-trip") {
  for (const auto c : {TestImageCorruption::None, TestImageCorruption::BadMagic,
                       TestImageCorruption::MirroredHalves, TestImageCorruption::WrongDeviceId}) {
    CHECK(parse_test_image_corruption(to_string(c)) == c);
  }
  CHECK_THROWS_WITH(parse_test_image_corruption("nope"), Catch::Contains("bad-magic"));
}
