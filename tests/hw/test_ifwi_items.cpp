// IFWI item resolution for the PSP recovery stream (navi31-flash.md §7.5).

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/ifwi_items.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

using namespace wavescope::hw::ifwi;

TEST_CASE("every resolvable item of the test image resolves inside the image") {
  const auto image = make_test_ifwi_image();
  const auto all = resolve_all_ifwi_items(image);
  REQUIRE(all.size() == 18);
  for (const auto &r : all) {
    INFO(r.error);
    REQUIRE(r.resolved);
    CHECK(r.resolved->offset + r.resolved->size <= image.size());
  }
}

TEST_CASE("item ranges follow the §7.5 table") {
  const auto image = make_test_ifwi_image();
  auto range = [&](std::uint32_t item) {
    const auto r = resolve_ifwi_item(image, item);
    return std::pair{r.offset, r.size};
  };
  CHECK(range(0x01) == std::pair<std::uint64_t, std::uint64_t>{0, 0x54});
  CHECK(range(0x02) == std::pair<std::uint64_t, std::uint64_t>{0x2000, 0x30});
  CHECK(range(0x03) == std::pair<std::uint64_t, std::uint64_t>{0x3000, 0x30});
  CHECK(range(0x06) == std::pair<std::uint64_t, std::uint64_t>{0x12000, 0x20});
  CHECK(range(0x08) == std::pair<std::uint64_t, std::uint64_t>{0x20000, 0xC0000});
  CHECK(range(0x80) == std::pair<std::uint64_t, std::uint64_t>{0x1000, 4});
  CHECK(range(0x81) == std::pair<std::uint64_t, std::uint64_t>{0x4000, 0x80});
  CHECK(range(0x82) == std::pair<std::uint64_t, std::uint64_t>{0x5000, 0x140});
  CHECK(range(0x88) == std::pair<std::uint64_t, std::uint64_t>{0x6800, 0x100 + 0x40 * 7});
  CHECK(range(0x89) == std::pair<std::uint64_t, std::uint64_t>{0x1F0000, 0x100});
}

TEST_CASE("item 0x08 follows the slot size of the first ISH") {
  TestImageOptions options;
  options.slot_size = 0x40000;
  CHECK(resolve_ifwi_item(make_test_ifwi_image(options), 0x08).size == 0x40000);
}

TEST_CASE("an unsupported item is refused by number") {
  const auto image = make_test_ifwi_image();
  CHECK_THROWS_WITH(resolve_ifwi_item(image, 0x8A), Catch::Contains("IFWI item 0x8a: not an item"));
  CHECK_THROWS_WITH(resolve_ifwi_item(image, 0x00), Catch::Contains("IFWI item 0x00"));
}

TEST_CASE("item resolution names the missing structure") {
  TestImageOptions options;
  options.corruption = TestImageCorruption::MissingPrimaryPsp;
  CHECK_THROWS_WITH(resolve_ifwi_item(make_test_ifwi_image(options), 0x02),
                    Catch::Contains("no $PSP at 0x002000"));
  options.corruption = TestImageCorruption::MissingSgnType;
  const auto missing_type = make_test_ifwi_image(options);
  CHECK_THROWS_WITH(resolve_ifwi_item(missing_type, 0x88),
                    Catch::Contains("no entry of sign type 7"));
  CHECK_THROWS_WITH(resolve_ifwi_item(missing_type, 0x87),
                    Catch::Contains("more than one entry of sign type 6"));
}

TEST_CASE("item resolution refuses ranges outside the image") {
  TestImageOptions options;
  options.corruption = TestImageCorruption::SgnPointerOutOfRange;
  const auto image = make_test_ifwi_image(options);
  CHECK_THROWS_WITH(resolve_ifwi_item(image, 0x81), Catch::Contains("no $SGN at 0x300000"));
  options.corruption = TestImageCorruption::Truncated;
  CHECK_THROWS_WITH(resolve_ifwi_item(make_test_ifwi_image(options), 0x89),
                    Catch::Contains("lies outside the 0x100000-byte image"));
}
