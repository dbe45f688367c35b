// validate_flash_image and parse_ifwi on the synthesized image and on every corruption the flash
// writer must refuse, each finding with the offset it names.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/checksums.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/ifwi/image_report.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

using namespace wavescope::hw::ifwi;

namespace {

ImageCheck check_corrupted(TestImageCorruption corruption) {
  TestImageOptions options;
  options.corruption = corruption;
  return validate_flash_image(make_test_ifwi_image(options));
}

// The image is rejected and one error sits at `offset` and mentions `text`.
void require_error_at(const ImageCheck &check, std::uint64_t offset, const std::string &text) {
  INFO(check.error_summary());
  REQUIRE_FALSE(check.accepted());
  const bool found = std::any_of(check.findings.begin(), check.findings.end(), [&](const auto &f) {
    return f.severity == FindingSeverity::Error && f.offset == offset &&
           f.message.find(text) != std::string::npos;
  });
  CHECK(found);
}

}  // namespace

TEST_CASE("parse_ifwi reads every structure of the test image") {
  const auto layout = parse_ifwi(make_test_ifwi_image());
  REQUIRE(layout.efs);
  CHECK(layout.efs->magic == kEfsMagic);
  CHECK(layout.efs->psp_directory == 0x2000);
  CHECK(layout.efs->backup_psp_directory == 0x3000);
  REQUIRE(layout.primary_psp);
  CHECK(layout.primary_psp->checksum_ok());
  REQUIRE(layout.primary_psp->entries.size() == 2);
  CHECK(layout.primary_psp->entries[1].type == 0x13D);
  CHECK(layout.primary_psp->entries[1].location == 0x13000);
  REQUIRE(layout.backup_psp);
  REQUIRE(layout.sgn);
  CHECK(layout.sgn->offset == 0x4000);
  CHECK(layout.sgn->checksum_ok());
  REQUIRE(layout.sgn->entries.size() == 7);
  CHECK(layout.sgn->entries[2].size == 0x100 + 0x40 * 3);
  CHECK(layout.sgn->entries[2].offset == 0x5800);
  REQUIRE(layout.ish_a);
  CHECK(layout.ish_a->slot_address == 0x20000);
  CHECK(layout.ish_a->slot_max_size == 0xC0000);
  CHECK(layout.ish_a->checksum == layout.ish_a->computed_checksum);
  REQUIRE(layout.ish_b);
  CHECK(layout.ish_b->slot_address == 0x100000);
  REQUIRE(layout.partitions.size() == 2);
  const auto &rom = layout.partitions[0].option_rom;
  REQUIRE(rom);
  CHECK(rom->offset == 0x20100);
  CHECK(rom->length == 0x10000);
  CHECK(rom->pcir_vendor_id == 0x1002);
  CHECK(rom->pcir_device_id == 0x744C);
  CHECK(rom->amd_signature == " 761295520");
  CHECK(rom->has_atom_table);
  CHECK_FALSE(layout.halves_identical);
}

TEST_CASE("validate_flash_image accepts the test image without findings") {
  const auto check = validate_flash_image(make_test_ifwi_image());
  INFO(check.error_summary());
  CHECK(check.accepted());
  CHECK(check.findings.empty());
  CHECK_NOTHROW(check.require_accepted());
}

TEST_CASE("validate_flash_image rejects a truncated image, naming its size") {
  require_error_at(check_corrupted(TestImageCorruption::Truncated), 0x100000, "1048576 bytes");
}

TEST_CASE("validate_flash_image rejects a wrong magic") {
  require_error_at(check_corrupted(TestImageCorruption::BadMagic), 0, "magic is 0x55aa55ab");
}

TEST_CASE("validate_flash_image rejects a missing primary $PSP directory") {
  require_error_at(check_corrupted(TestImageCorruption::MissingPrimaryPsp), 0x2000,
                   "no $PSP cookie for the primary");
}

TEST_CASE("validate_flash_image rejects a $PSP checksum mismatch") {
  require_error_at(check_corrupted(TestImageCorruption::BadPspChecksum), 0x2004,
                   "Fletcher-32 of its body is 0x606052bd");
}

TEST_CASE("validate_flash_image rejects a $PSP entry pointing outside the image") {
  require_error_at(check_corrupted(TestImageCorruption::PspEntryOutside), 0x2020,
                   "points at 0x2ff000..0x2ff020, outside");
}

TEST_CASE("validate_flash_image rejects a $SGN pointer outside the image") {
  require_error_at(check_corrupted(TestImageCorruption::SgnPointerOutOfRange), 0x1000,
                   "$SGN pointer is 0x300000");
}

TEST_CASE("validate_flash_image rejects a $SGN table without its cookie") {
  require_error_at(check_corrupted(TestImageCorruption::BadSgnMagic), 0x4000, "no $SGN cookie");
}

TEST_CASE("validate_flash_image rejects a $SGN table with a missing and a duplicated type") {
  const auto check = check_corrupted(TestImageCorruption::MissingSgnType);
  require_error_at(check, 0x4000, "no entry of sign type 7");
  require_error_at(check, 0x4000, "2 entries of sign type 6");
}

TEST_CASE("validate_flash_image rejects an ISH slot outside the image") {
  require_error_at(check_corrupted(TestImageCorruption::IshSlotOutside), 0x13010,
                   "ISH B slot 0x1f8000..0x2b8000");
}

TEST_CASE("validate_flash_image rejects an ISH slot size that is not a multiple of 4") {
  require_error_at(check_corrupted(TestImageCorruption::IshSlotSizeUnaligned), 0x12018,
                   "0xc0002 is not a multiple of 4");
}

TEST_CASE("validate_flash_image rejects mirrored halves") {
  require_error_at(check_corrupted(TestImageCorruption::MirroredHalves), 0x100000,
                   "halves of the image are identical");
}

TEST_CASE("validate_flash_image rejects a VBIOS for another device") {
  require_error_at(check_corrupted(TestImageCorruption::WrongDeviceId), 0x20100,
                   "is for PCI 1002:73bf, this board is 1002:744c");
}

TEST_CASE("validate_flash_image rejects an empty or blank chip image") {
  require_error_at(validate_flash_image({}), 0, "too short");
  const std::vector<std::uint8_t> blank(kNavi31ImageSize, 0xFF);
  require_error_at(validate_flash_image(blank), 0, "magic is 0xffffffff");
}

TEST_CASE("require_accepted throws BadInput naming every error and the override hint") {
  const auto check = check_corrupted(TestImageCorruption::BadMagic);
  try {
    check.require_accepted("pass --force-image to write it anyway");
    FAIL("accepted a bad image");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(e.what(), Catch::Contains("0x000000: magic is 0x55aa55ab"));
    CHECK_THAT(e.what(), Catch::Contains("--force-image"));
  }
}

TEST_CASE("a changed ISH checksum is only a warning, since the real algorithm is unknown") {
  auto image = make_test_ifwi_image();
  image[0x12000] ^= 1;
  const auto check = validate_flash_image(image);
  CHECK(check.accepted());
  REQUIRE(check.warning_count() == 1);
  CHECK(check.findings[0].offset == 0x12000);
}

TEST_CASE("a table of many bad entries reports the first eight and counts the rest") {
  auto image = make_test_ifwi_image();
  const auto layout = parse_ifwi(image);
  REQUIRE(layout.sgn);
  const std::uint64_t table = layout.sgn->offset;
  // 200 entries of all-ones: each has a bad sign type and points outside the image.
  const std::uint32_t count = 200;
  std::memcpy(image.data() + table + 8, &count, 4);
  std::fill_n(image.begin() + static_cast<std::ptrdiff_t>(table + 16), 16 * count, 0xFF);
  const auto check = validate_flash_image(image);
  const auto with = [&](const std::string &text) {
    return std::count_if(check.findings.begin(), check.findings.end(),
                         [&](const auto &f) { return f.message.find(text) != std::string::npos; });
  };
  CHECK(with(": $SGN entry ") == 8);
  REQUIRE(with("392 more bad entries in the $SGN table") == 1);
  CHECK(with("$SGN table has no entry of sign type") == 7);
}

TEST_CASE("a table whose count runs past the image lists its first entries, skips its checksum") {
  auto image = make_test_ifwi_image();
  // A garbage count in the primary $PSP directory and in the $SGN table: far more entries than
  // the 2 MiB image can hold after them.
  const std::uint32_t garbage = 0x0DEADBEE;
  std::memcpy(image.data() + kPrimaryPspDirectoryOffset + 8, &garbage, 4);
  const std::uint64_t sgn = parse_ifwi(image).sgn->offset;
  std::memcpy(image.data() + sgn + 8, &garbage, 4);
  const auto layout = parse_ifwi(image);
  const auto holds = [&](std::uint64_t first) {
    return static_cast<std::uint32_t>((image.size() - first) / 16);
  };

  REQUIRE(layout.primary_psp);
  const auto &dir = *layout.primary_psp;
  CHECK(dir.entry_count == garbage);
  CHECK(dir.entries_in_image == holds(kPrimaryPspDirectoryOffset + 16));
  CHECK(dir.entries_truncated());
  CHECK(dir.entries.size() == kListedEntriesOfOverlongTable);
  CHECK(dir.entries[1].type == 0x13D);  // the real entries are still the first ones listed
  CHECK_FALSE(dir.computed_checksum);
  CHECK_FALSE(dir.checksum_ok());

  REQUIRE(layout.sgn);
  CHECK(layout.sgn->entries_in_image == holds(sgn + 16));
  CHECK(layout.sgn->entries.size() == kListedEntriesOfOverlongTable);
  CHECK_FALSE(layout.sgn->computed_checksum);

  const auto check = validate_flash_image(image);
  require_error_at(check, kPrimaryPspDirectoryOffset + 8,
                   fmt::format("claims {} entries; {} fit in the image", garbage,
                               holds(kPrimaryPspDirectoryOffset + 16)));
  require_error_at(
      check, sgn + 8,
      fmt::format("$SGN table claims {} entries; {} fit in the image", garbage, holds(sgn + 16)));
  const std::string text = to_text(layout);
  CHECK_THAT(text, Catch::Contains("not checked: the entries run past the image"));
  CHECK_THAT(text,
             Catch::Contains(fmt::format("{} entries fit in the image; the first 16 are listed",
                                         holds(kPrimaryPspDirectoryOffset + 16))));
}

TEST_CASE("a table whose count fits is read and checksummed whole") {
  auto image = make_test_ifwi_image();
  const std::uint64_t sgn = parse_ifwi(image).sgn->offset;
  const std::uint32_t count = 100;  // 7 real entries and 93 of the image's 0xFF fill
  std::memcpy(image.data() + sgn + 8, &count, 4);
  const auto layout = parse_ifwi(image);
  REQUIRE(layout.sgn);
  CHECK_FALSE(layout.sgn->entries_truncated());
  CHECK(layout.sgn->entries.size() == count);
  REQUIRE(layout.sgn->computed_checksum);
  CHECK(*layout.sgn->computed_checksum ==
        crc32(std::span<const std::uint8_t>(image).subspan(sgn + 8, 8 + 16 * count)));
}
