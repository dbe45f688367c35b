#include "wavescope/hw/ifwi/test_image.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "ifwi/le_bytes.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/checksums.hpp"
#include "wavescope/hw/ifwi/ifwi_layout.hpp"

namespace wavescope::hw::ifwi {
namespace {

using detail::put_text;
using detail::put_u16;
using detail::put_u32;

constexpr std::uint32_t kSgnTableOffset = 0x4000;
constexpr std::uint32_t kSlotAAddress = 0x20000;
constexpr std::uint32_t kSlotBAddress = 0x100000;

constexpr std::array<std::pair<TestImageCorruption, std::string_view>, 13> kCorruptionNames = {{
    {TestImageCorruption::None, "none"},
    {TestImageCorruption::BadMagic, "bad-magic"},
    {TestImageCorruption::MissingPrimaryPsp, "missing-psp"},
    {TestImageCorruption::BadPspChecksum, "bad-psp-checksum"},
    {TestImageCorruption::PspEntryOutside, "psp-entry-outside"},
    {TestImageCorruption::SgnPointerOutOfRange, "sgn-pointer-out-of-range"},
    {TestImageCorruption::BadSgnMagic, "bad-sgn-magic"},
    {TestImageCorruption::MissingSgnType, "missing-sgn-type"},
    {TestImageCorruption::IshSlotOutside, "ish-slot-outside"},
    {TestImageCorruption::IshSlotSizeUnaligned, "ish-slot-size-unaligned"},
    {TestImageCorruption::MirroredHalves, "mirrored-halves"},
    {TestImageCorruption::Truncated, "truncated"},
    {TestImageCorruption::WrongDeviceId, "wrong-device-id"},
}};

void put_bytes(std::span<std::uint8_t> image, std::uint64_t offset,
               const std::vector<std::uint8_t> &bytes) {
  std::copy(bytes.begin(), bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(offset));
}

// Cookie, Fletcher-32 of the body, entry count, 0, then entries {type, size, u64 location}.
void put_directory(std::span<std::uint8_t> image, std::uint64_t at, std::string_view cookie,
                   std::span<const DirectoryEntry> entries) {
  put_text(image, at, cookie);
  put_u32(image, at + 8, static_cast<std::uint32_t>(entries.size()));
  put_u32(image, at + 12, 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::uint64_t e = at + 16 + 16 * i;
    put_u32(image, e, entries[i].type);
    put_u32(image, e + 4, entries[i].size);
    put_u32(image, e + 8, static_cast<std::uint32_t>(entries[i].location));
    put_u32(image, e + 12, static_cast<std::uint32_t>(entries[i].location >> 32));
  }
  put_u32(image, at + 4, fletcher32(image.subspan(at + 8, 8 + 16 * entries.size())));
}

void put_image_slot_header(std::span<std::uint8_t> image, std::uint64_t at,
                           std::uint32_t slot_address, std::uint32_t slot_size) {
  put_u32(image, at + 4, 1);   // priority
  put_u32(image, at + 8, 0);   // update retries
  put_u32(image, at + 12, 0);  // glitch retries (u8) + 3 reserved bytes
  put_u32(image, at + 0x10, slot_address);
  put_u32(image, at + 0x14, 0);  // PSP id
  put_u32(image, at + 0x18, slot_size);
  put_u32(image, at + 0x1C, 0xFFFFFFFF);
  put_u32(image, at, crc32(image.subspan(at + 4, kIshSize - 4)));
}

// The legacy option-ROM stand-in: PRNG bytes with a VBIOS-like header, PCIR and ATOM marker.
std::vector<std::uint8_t> make_option_rom(const TestImageOptions &options) {
  auto rom = xorshift_bytes(options.seed ^ 0x7700, 0x10000);
  const std::span<std::uint8_t> r(rom);
  r[0] = 0x55;
  r[1] = 0xAA;
  r[2] = 0x80;
  put_u16(r, 0x18, 0x0200);
  put_text(r, 0x30, " 761295520");
  put_u16(r, 0x48, 0x0100);
  put_text(r, 0x104, "ATOM");
  const std::uint64_t p = 0x200;
  put_text(r, p, "PCIR");
  put_u16(r, p + 4, 0x1002);
  put_u16(r, p + 6, options.device_id);
  put_u16(r, p + 8, 0);
  put_u16(r, p + 10, 0x18);
  r[p + 12] = 3;
  r[p + 13] = 0x00;  // class code 03 00 00, low byte first
  r[p + 14] = 0x00;
  r[p + 15] = 0x03;
  put_u16(r, p + 16, 0x80);
  put_u16(r, p + 18, 0);
  r[p + 20] = 0;     // code type x86
  r[p + 21] = 0x80;  // last image
  put_u16(r, p + 22, 0);
  return rom;
}

std::vector<std::uint8_t> make_partition(const TestImageOptions &options) {
  std::vector<std::uint8_t> part(options.slot_size, 0xFF);
  const DirectoryEntry vbios{kVbiosImageFirmwareId, 0x10000, 0x100};
  put_directory(part, 0, "$PL2", std::span(&vbios, 1));
  put_bytes(part, 0x100, make_option_rom(options));
  put_bytes(part, 0x20000, xorshift_bytes(options.seed ^ 0xA0A0, 0x10000));
  return part;
}

void corrupt(std::vector<std::uint8_t> &image, TestImageCorruption corruption) {
  const std::span<std::uint8_t> img(image);
  switch (corruption) {
  case TestImageCorruption::None:
  case TestImageCorruption::WrongDeviceId:  // made through the device id parameter
    break;
  case TestImageCorruption::BadMagic: put_u32(img, 0, 0x55AA55AB); break;
  case TestImageCorruption::MissingPrimaryPsp:
    std::fill_n(img.begin() + kPrimaryPspDirectoryOffset, 0x30, 0xFF);
    break;
  case TestImageCorruption::BadPspChecksum:
    put_u32(img, kPrimaryPspDirectoryOffset + 4,
            detail::u32_at(img, kPrimaryPspDirectoryOffset + 4).value() + 1);
    break;
  case TestImageCorruption::PspEntryOutside: {
    const DirectoryEntry entries[] = {{kPspRegionAFirmwareId, 0x20, 0x12000},
                                      {kPspRegionBFirmwareId, 0x20, 0x2FF000}};
    put_directory(img, kPrimaryPspDirectoryOffset, "$PSP", entries);
    break;
  }
  case TestImageCorruption::SgnPointerOutOfRange:
    put_u32(img, kSgnPointerOffset, 0x00300000);
    break;
  case TestImageCorruption::BadSgnMagic: put_text(img, kSgnTableOffset, "$SGX"); break;
  case TestImageCorruption::MissingSgnType: {
    const std::uint64_t last = kSgnTableOffset + 16 + 16 * 6;
    put_u32(img, last, 6);
    put_u32(img, kSgnTableOffset + 4, crc32(img.subspan(kSgnTableOffset + 8, 8 + 16 * 7)));
    break;
  }
  case TestImageCorruption::IshSlotOutside:
    put_image_slot_header(img, kIshBOffset, 0x1F8000,
                          detail::u32_at(img, kIshBOffset + 0x18).value());
    break;
  case TestImageCorruption::IshSlotSizeUnaligned:
    put_image_slot_header(img, kIshAOffset, kSlotAAddress,
                          detail::u32_at(img, kIshAOffset + 0x18).value() + 2);
    break;
  case TestImageCorruption::MirroredHalves:
    std::copy_n(image.begin(), image.size() / 2, image.begin() + image.size() / 2);
    break;
  case TestImageCorruption::Truncated: image.resize(image.size() / 2); break;
  }
}

}  // namespace

std::vector<std::uint8_t> make_test_ifwi_image(const TestImageOptions &requested) {
  TestImageOptions options = requested;
  if (options.slot_size % 0x1000 != 0 || options.slot_size < 0x30000 ||
      options.slot_size > 0xE0000) {
    throw Error(ErrorKind::Usage,
                fmt::format("test image slot size {:#x} must be a multiple of 0x1000 in "
                            "[0x30000, 0xE0000]",
                            options.slot_size));
  }
  if (options.corruption == TestImageCorruption::WrongDeviceId) options.device_id = 0x73BF;
  std::vector<std::uint8_t> image(kNavi31ImageSize, 0xFF);
  const std::span<std::uint8_t> img(image);
  put_u32(img, 0, kEfsMagic);
  put_u32(img, 0x14, static_cast<std::uint32_t>(kPrimaryPspDirectoryOffset));
  put_u32(img, 0x2C, static_cast<std::uint32_t>(kBackupPspDirectoryOffset));
  put_u32(img, kSgnPointerOffset, kSgnTableOffset);

  const DirectoryEntry psp_entries[] = {{kPspRegionAFirmwareId, 0x20, kIshAOffset},
                                        {kPspRegionBFirmwareId, 0x20, kIshBOffset}};
  put_directory(img, kPrimaryPspDirectoryOffset, "$PSP", psp_entries);
  put_directory(img, kBackupPspDirectoryOffset, "$PSP", psp_entries);

  put_text(img, kSgnTableOffset, "$SGN");
  put_u32(img, kSgnTableOffset + 8, 7);
  put_u32(img, kSgnTableOffset + 12, 0);
  for (std::uint32_t t = 1; t <= 7; ++t) {
    const std::uint64_t e = kSgnTableOffset + 16 * t;
    const std::uint32_t size = 0x100 + 0x40 * t;
    const std::uint32_t offset = 0x5000 + 0x400 * (t - 1);
    put_u32(img, e, t);
    put_u32(img, e + 4, 0);
    put_u32(img, e + 8, size);
    put_u32(img, e + 12, offset);
    put_bytes(img, offset, xorshift_bytes(options.seed ^ (0x5300 + t), size));
  }
  put_u32(img, kSgnTableOffset + 4, crc32(img.subspan(kSgnTableOffset + 8, 8 + 16 * 7)));

  put_bytes(img, 0x10000, xorshift_bytes(options.seed ^ 0x10000, 0x1000));
  put_bytes(img, 0x11000, xorshift_bytes(options.seed ^ 0x11000, 0x1000));
  put_image_slot_header(img, kIshAOffset, kSlotAAddress, options.slot_size);
  put_image_slot_header(img, kIshBOffset, kSlotBAddress, options.slot_size);
  const auto partition = make_partition(options);
  put_bytes(img, kSlotAAddress, partition);
  put_bytes(img, kSlotBAddress, partition);
  put_bytes(img, 0x1F0000, xorshift_bytes(options.seed ^ 0x1F0000, 0x100));

  corrupt(image, options.corruption);
  return image;
}

std::string_view to_string(TestImageCorruption corruption) {
  for (const auto &[value, name] : kCorruptionNames)
    if (value == corruption) return name;
  return "unknown";
}

TestImageCorruption parse_test_image_corruption(std::string_view name) {
  std::string names;
  for (const auto &[value, known] : kCorruptionNames) {
    if (known == name) return value;
    names += names.empty() ? "" : ", ";
    names += known;
  }
  throw Error(ErrorKind::Usage,
              fmt::format("unknown test image corruption '{}' (known: {})", name, names));
}

}  // namespace wavescope::hw::ifwi
