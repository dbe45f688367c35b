#include "wavescope/hw/ifwi/ifwi_items.hpp"

#include <fmt/format.h>

#include "ifwi/le_bytes.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/ifwi_layout.hpp"

namespace wavescope::hw::ifwi {
namespace {

using detail::text_at;
using detail::u32_at;

[[noreturn]] void fail(std::uint32_t item, const std::string &why) {
  throw Error(ErrorKind::BadInput, fmt::format("IFWI item {:#04x}: {}", item, why));
}

std::uint32_t u32_or_fail(std::span<const std::uint8_t> image, std::uint64_t offset,
                          std::uint32_t item) {
  const auto value = u32_at(image, offset);
  if (!value)
    fail(item, fmt::format("offset {:#08x} is past the end of the {:#x}-byte image", offset,
                           image.size()));
  return *value;
}

// A directory-sized range: (entry count @+8 + 1) × 16 bytes at a structure with `cookie`.
IfwiItem directory_item(std::span<const std::uint8_t> image, std::uint32_t item,
                        std::uint64_t offset, std::string_view cookie, std::string description) {
  if (!text_at(image, offset, cookie)) fail(item, fmt::format("no {} at {:#08x}", cookie, offset));
  const std::uint64_t count = u32_or_fail(image, offset + 8, item);
  return {item, offset, (count + 1) * 16, std::move(description)};
}

IfwiItem signature_entry_item(std::span<const std::uint8_t> image, std::uint32_t item) {
  const std::uint32_t sign_type = item - 0x81;
  const std::uint32_t table = u32_or_fail(image, kSgnPointerOffset, item);
  if (!text_at(image, table, "$SGN"))
    fail(item, fmt::format("no $SGN at {:#08x} (the pointer at 0x001000)", table));
  const std::uint32_t count = u32_or_fail(image, std::uint64_t(table) + 8, item);
  // Refused up front: walking a garbage count would read every word up to the image's end.
  const std::uint64_t first_entry = std::uint64_t(table) + 0x10;
  const std::uint64_t fit = first_entry <= image.size() ? (image.size() - first_entry) / 16 : 0;
  if (count > fit)
    fail(item, fmt::format("the $SGN table at {:#08x} claims {} entries; {} fit in the image",
                           table, count, fit));
  std::optional<IfwiItem> found;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t entry = table + 0x10 + 16 * i;
    if (u32_or_fail(image, entry, item) != sign_type) continue;
    if (found)
      fail(item, fmt::format("the $SGN table at {:#08x} has more than one entry of sign type {}",
                             table, sign_type));
    found =
        IfwiItem{item, u32_or_fail(image, entry + 12, item), u32_or_fail(image, entry + 8, item),
                 fmt::format("$SGN entry of sign type {}", sign_type)};
  }
  if (!found)
    fail(item, fmt::format("the $SGN table at {:#08x} ({} entries) has no entry of sign type {}",
                           table, count, sign_type));
  return *found;
}

IfwiItem resolve_unchecked(std::span<const std::uint8_t> image, std::uint32_t item) {
  switch (item) {
  case 0x01: return {item, 0x000000, 0x54, "EFS header (0x55AA55AA)"};
  case 0x02:
    return directory_item(image, item, kPrimaryPspDirectoryOffset, "$PSP",
                          "primary $PSP directory");
  case 0x03:
    return directory_item(image, item, kBackupPspDirectoryOffset, "$PSP", "backup $PSP directory");
  case 0x04: return {item, 0x010000, 0x1000, "region at 0x010000"};
  case 0x05: return {item, 0x011000, 0x1000, "region at 0x011000"};
  case 0x06: return {item, kIshAOffset, kIshSize, "image-slot header A"};
  case 0x07: return {item, kIshBOffset, kIshSize, "image-slot header B"};
  case 0x08:
    return {item, u32_or_fail(image, kIshAOffset + 0x10, item),
            u32_or_fail(image, kIshAOffset + 0x18, item), "partition payload of ISH A"};
  case 0x80: return {item, kSgnPointerOffset, 4, "$SGN table pointer"};
  case 0x81:
    return directory_item(image, item, u32_or_fail(image, kSgnPointerOffset, item), "$SGN",
                          "$SGN table");
  case 0x89: return {item, 0x1F0000, 0x100, "region at 0x1F0000"};
  default:
    if (item >= 0x82 && item <= 0x88) return signature_entry_item(image, item);
    fail(item, "not an item the host can resolve (known: 0x01-0x08, 0x80-0x89)");
  }
}

}  // namespace

IfwiItem resolve_ifwi_item(std::span<const std::uint8_t> image, std::uint32_t item) {
  IfwiItem resolved = resolve_unchecked(image, item);
  if (resolved.offset > image.size() || resolved.size > image.size() - resolved.offset) {
    fail(item, fmt::format("{} at {:#08x}..{:#08x} ({:#x} bytes) lies outside the {:#x}-byte image",
                           resolved.description, resolved.offset, resolved.offset + resolved.size,
                           resolved.size, image.size()));
  }
  return resolved;
}

std::vector<IfwiItemResolution> resolve_all_ifwi_items(std::span<const std::uint8_t> image) {
  std::vector<IfwiItemResolution> out;
  for (const std::uint32_t item : kResolvableIfwiItems) {
    try {
      out.push_back({item, resolve_ifwi_item(image, item), {}});
    } catch (const Error &e) {
      out.push_back({item, std::nullopt, e.what()});
    }
  }
  return out;
}

}  // namespace wavescope::hw::ifwi
