#include "wavescope/hw/ifwi/ifwi_layout.hpp"

#include <algorithm>
#include <cstring>

#include "ifwi/le_bytes.hpp"
#include "wavescope/hw/ifwi/checksums.hpp"

namespace wavescope::hw::ifwi {
namespace {

using detail::fits;
using detail::text_at;
using detail::u16_at;
using detail::u32_at;

constexpr std::size_t kDirectoryHeaderSize = 16;
constexpr std::size_t kDirectoryEntrySize = 16;

// How many of a table's `count` 16-byte entries starting at `first` the image holds, and how
// many to read: all of them, or the first few of a table that runs past the image.
struct EntrySpan {
  std::uint32_t in_image = 0;
  std::size_t to_read = 0;
};
EntrySpan entry_span(std::span<const std::uint8_t> image, std::uint64_t first,
                     std::uint32_t count) {
  const std::uint64_t fit = first < image.size() ? (image.size() - first) / kDirectoryEntrySize : 0;
  const auto in_image = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, fit));
  return {in_image, in_image < count
                        ? std::min<std::size_t>(in_image, kListedEntriesOfOverlongTable)
                        : in_image};
}

// The checksummed body: the count and the reserved word at +8, then the entries.
std::span<const std::uint8_t> table_body(std::span<const std::uint8_t> image, std::uint64_t offset,
                                         std::uint32_t count) {
  return image.subspan(offset + 8, 8 + std::size_t{count} * kDirectoryEntrySize);
}

std::optional<SignatureTable> parse_sgn(std::span<const std::uint8_t> image, std::uint64_t offset) {
  if (!text_at(image, offset, "$SGN") || !fits(image, offset, kDirectoryHeaderSize))
    return std::nullopt;
  SignatureTable table;
  table.offset = offset;
  table.checksum = *u32_at(image, offset + 4);
  table.entry_count = *u32_at(image, offset + 8);
  const auto span = entry_span(image, offset + kDirectoryHeaderSize, table.entry_count);
  table.entries_in_image = span.in_image;
  if (!table.entries_truncated())
    table.computed_checksum = crc32(table_body(image, offset, table.entry_count));
  table.entries.reserve(span.to_read);
  for (std::uint64_t i = 0; i < span.to_read; ++i) {
    const std::uint64_t at = offset + kDirectoryHeaderSize + i * kDirectoryEntrySize;
    table.entries.push_back({*u32_at(image, at), *u32_at(image, at + 4), *u32_at(image, at + 8),
                             *u32_at(image, at + 12)});
  }
  return table;
}

std::optional<ImageSlotHeader> parse_ish(std::span<const std::uint8_t> image, std::uint64_t offset,
                                         char slot) {
  if (!fits(image, offset, kIshSize)) return std::nullopt;
  ImageSlotHeader ish;
  ish.slot = slot;
  ish.offset = offset;
  ish.checksum = *u32_at(image, offset);
  ish.computed_checksum = crc32(image.subspan(offset + 4, kIshSize - 4));
  ish.priority = *u32_at(image, offset + 4);
  ish.update_retries = *u32_at(image, offset + 8);
  ish.glitch_retries = image[offset + 12];
  ish.slot_address = *u32_at(image, offset + 0x10);
  ish.psp_id = *u32_at(image, offset + 0x14);
  ish.slot_max_size = *u32_at(image, offset + 0x18);
  ish.reserved = *u32_at(image, offset + 0x1C);
  return ish;
}

std::optional<OptionRom> parse_option_rom(std::span<const std::uint8_t> image,
                                          std::uint64_t offset) {
  if (!fits(image, offset, 3) || image[offset] != 0x55 || image[offset + 1] != 0xAA)
    return std::nullopt;
  OptionRom rom;
  rom.offset = offset;
  rom.length = image[offset + 2] * 512u;
  if (const auto pcir = u16_at(image, offset + 0x18);
      pcir && text_at(image, offset + *pcir, "PCIR")) {
    rom.pcir_vendor_id = u16_at(image, offset + *pcir + 4);
    rom.pcir_device_id = u16_at(image, offset + *pcir + 6);
  }
  if (fits(image, offset + 0x30, 10)) {
    const auto *p = image.data() + offset + 0x30;
    if (std::all_of(p, p + 10, [](std::uint8_t c) { return c == ' ' || (c >= '0' && c <= '9'); }))
      rom.amd_signature.assign(reinterpret_cast<const char *>(p), 10);
  }
  if (const auto atom = u16_at(image, offset + 0x48))
    rom.has_atom_table = text_at(image, offset + *atom + 4, "ATOM");
  return rom;
}

std::optional<Partition> parse_partition(std::span<const std::uint8_t> image,
                                         const ImageSlotHeader &ish) {
  if (ish.blank() || ish.slot_address >= image.size()) return std::nullopt;
  Partition part;
  part.slot = ish.slot;
  part.offset = ish.slot_address;
  part.size = std::min<std::uint64_t>(ish.slot_max_size, image.size() - ish.slot_address);
  part.directory = parse_directory(image, part.offset, "$PL2");
  if (part.directory) {
    for (const auto &entry : part.directory->entries) {
      if (entry.type != kVbiosImageFirmwareId || entry.location >= part.size) continue;
      part.option_rom = parse_option_rom(image, part.offset + entry.location);
      break;
    }
  }
  return part;
}

}  // namespace

std::optional<PspDirectory> parse_directory(std::span<const std::uint8_t> image,
                                            std::uint64_t offset, std::string_view cookie) {
  if (!text_at(image, offset, cookie) || !fits(image, offset, kDirectoryHeaderSize))
    return std::nullopt;
  PspDirectory dir;
  dir.offset = offset;
  dir.cookie = std::string(cookie);
  dir.checksum = *u32_at(image, offset + 4);
  dir.entry_count = *u32_at(image, offset + 8);
  dir.additional_info = *u32_at(image, offset + 12);
  const auto span = entry_span(image, offset + kDirectoryHeaderSize, dir.entry_count);
  dir.entries_in_image = span.in_image;
  if (!dir.entries_truncated())
    dir.computed_checksum = fletcher32(table_body(image, offset, dir.entry_count));
  dir.entries.reserve(span.to_read);
  for (std::uint64_t i = 0; i < span.to_read; ++i) {
    const std::uint64_t at = offset + kDirectoryHeaderSize + i * kDirectoryEntrySize;
    const std::uint64_t location = *u32_at(image, at + 8) | std::uint64_t(*u32_at(image, at + 12))
                                                                << 32;
    dir.entries.push_back({*u32_at(image, at), *u32_at(image, at + 4), location});
  }
  return dir;
}

IfwiLayout parse_ifwi(std::span<const std::uint8_t> image) {
  IfwiLayout layout;
  layout.size = image.size();
  if (fits(image, 0, kEfsHeaderSize))
    layout.efs = EfsHeader{*u32_at(image, 0), *u32_at(image, 0x14), *u32_at(image, 0x2C)};
  layout.primary_psp = parse_directory(image, kPrimaryPspDirectoryOffset, "$PSP");
  layout.backup_psp = parse_directory(image, kBackupPspDirectoryOffset, "$PSP");
  layout.sgn_pointer = u32_at(image, kSgnPointerOffset);
  if (layout.sgn_pointer) layout.sgn = parse_sgn(image, *layout.sgn_pointer);
  layout.ish_a = parse_ish(image, kIshAOffset, 'A');
  layout.ish_b = parse_ish(image, kIshBOffset, 'B');
  for (const auto &ish : {layout.ish_a, layout.ish_b})
    if (ish)
      if (auto part = parse_partition(image, *ish)) layout.partitions.push_back(std::move(*part));
  const std::size_t half = image.size() / 2;
  layout.halves_identical = half > 0 && image.size() % 2 == 0 &&
                            std::memcmp(image.data(), image.data() + half, half) == 0;
  return layout;
}

}  // namespace wavescope::hw::ifwi
