#pragma once
// The deterministic synthesized Navi31 IFWI image of navi31-flash.md §10.12: every structure the
// tools check (EFS header, $PSP directories, $SGN table, ISH A/B, two identical partitions with a
// VBIOS stand-in), no AMD binary. Corruption variants give tests a bad image of each kind.

#include <cstdint>
#include <string_view>
#include <vector>

namespace wavescope::hw::ifwi {

enum class TestImageCorruption {
  None,
  BadMagic,              // u32 @0 is not 0x55AA55AA
  MissingPrimaryPsp,     // no "$PSP" at 0x2000
  BadPspChecksum,        // primary $PSP checksum off by one
  PspEntryOutside,       // a primary $PSP entry points past the end of the image
  SgnPointerOutOfRange,  // u32 @0x1000 points past the end of the image
  BadSgnMagic,           // the $SGN cookie is overwritten
  MissingSgnType,        // sign type 7 replaced by a second type 6 (7 missing, 6 duplicated)
  IshSlotOutside,        // ISH B slot address past 2 MiB
  IshSlotSizeUnaligned,  // ISH A slot max size not a multiple of 4
  MirroredHalves,        // the first MiB copied over the second
  Truncated,             // 1 MiB instead of 2
  WrongDeviceId,         // PCIR device id 0x73BF instead of 0x744C
};

struct TestImageOptions {
  std::uint32_t seed = 0x1F31;
  std::uint32_t slot_size = 0xC0000;  // multiple of 0x1000 in [0x30000, 0xE0000]; "small" 0x40000
  std::uint16_t device_id = 0x744C;
  TestImageCorruption corruption = TestImageCorruption::None;
};

// Throws wavescope::Error (Usage) for a slot size outside the allowed range.
std::vector<std::uint8_t> make_test_ifwi_image(const TestImageOptions &options = {});

std::string_view to_string(TestImageCorruption corruption);
// Parses a name as printed by to_string ("bad-magic", ...); throws Error (Usage) listing the names.
TestImageCorruption parse_test_image_corruption(std::string_view name);

}  // namespace wavescope::hw::ifwi
