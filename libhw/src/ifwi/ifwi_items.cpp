#include "wavescope/hw/ifwi/ifwi_items.hpp"

#include <array>
#include <optional>
#include <variant>

#include <fmt/format.h>

#include "ifwi/le_bytes.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/ifwi_layout.hpp"

namespace wavescope::hw::ifwi {
namespace {

using detail::text_at;
using detail::u32_at;

// Failures are values inside the resolver: resolve_all_ifwi_items asks for all 18 items of what is
// often a damaged image, and 18 thrown exceptions cost more than the whole resolution.
struct Failure {
  std::string why;
};
template <typename T> using Result = std::variant<T, Failure>;

Failure past_end(std::span<const std::uint8_t> image, std::uint64_t offset) {
  return {
      fmt::format("offset {:#08x} is past the end of the {:#x}-byte image", offset, image.size())};
}

// A directory-sized range: (entry count @+8 + 1) × 16 bytes at a structure with `cookie`.
Result<IfwiItem> directory_item(std::span<const std::uint8_t> image, std::uint32_t item,
                                std::uint64_t offset, std::string_view cookie,
                                std::string description) {
  if (!text_at(image, offset, cookie))
    return Failure{fmt::format("no {} at {:#08x}", cookie, offset)};
  const auto count = u32_at(image, offset + 8);
  if (!count) return past_end(image, offset + 8);
  return IfwiItem{item, offset, (std::uint64_t{*count} + 1) * 16, std::move(description)};
}

// Items 0x82..0x88 are the $SGN entries of sign types 1..7.
constexpr std::uint32_t kFirstSignatureItem = 0x82, kSignTypes = 7;

// One walk of the $SGN table for all seven sign types: resolving every item walks it once, not
// seven times (a damaged table can claim ~131,000 entries).
struct SignatureScan {
  std::uint32_t table = 0, count = 0;
  std::array<std::optional<IfwiItem>, kSignTypes> found;  // [sign type - 1]
  std::array<bool, kSignTypes> repeated{};
};

Result<SignatureScan> scan_signatures(std::span<const std::uint8_t> image) {
  const auto pointer = u32_at(image, kSgnPointerOffset);
  if (!pointer) return past_end(image, kSgnPointerOffset);
  const std::uint32_t table = *pointer;
  if (!text_at(image, table, "$SGN"))
    return Failure{fmt::format("no $SGN at {:#08x} (the pointer at 0x001000)", table)};
  const auto claimed = u32_at(image, std::uint64_t(table) + 8);
  if (!claimed) return past_end(image, std::uint64_t(table) + 8);
  const std::uint32_t count = *claimed;
  // Refused up front: walking a garbage count would read every word up to the image's end.
  const std::uint64_t first_entry = std::uint64_t(table) + 0x10;
  const std::uint64_t fit = first_entry <= image.size() ? (image.size() - first_entry) / 16 : 0;
  if (count > fit)
    return Failure{fmt::format("the $SGN table at {:#08x} claims {} entries; {} fit in the image",
                               table, count, fit)};
  SignatureScan scan{table, count, {}, {}};
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t entry = first_entry + 16 * i;  // inside the image: count <= fit
    const std::uint32_t sign_type = *u32_at(image, entry);
    if (sign_type < 1 || sign_type > kSignTypes) continue;
    auto &found = scan.found[sign_type - 1];
    if (found) {
      scan.repeated[sign_type - 1] = true;
      continue;
    }
    found =
        IfwiItem{kFirstSignatureItem + sign_type - 1, *u32_at(image, entry + 12),
                 *u32_at(image, entry + 8), fmt::format("$SGN entry of sign type {}", sign_type)};
  }
  return scan;
}

Result<IfwiItem> signature_entry_item(const Result<SignatureScan> &result, std::uint32_t item) {
  if (const auto *failure = std::get_if<Failure>(&result)) return *failure;
  const auto &scan = std::get<SignatureScan>(result);
  const std::uint32_t sign_type = item - kFirstSignatureItem + 1;
  if (scan.repeated[sign_type - 1])
    return Failure{fmt::format("the $SGN table at {:#08x} has more than one entry of sign type {}",
                               scan.table, sign_type)};
  if (!scan.found[sign_type - 1])
    return Failure{
        fmt::format("the $SGN table at {:#08x} ({} entries) has no entry of sign type {}",
                    scan.table, scan.count, sign_type)};
  return *scan.found[sign_type - 1];
}

bool is_signature_item(std::uint32_t item) {
  return item >= kFirstSignatureItem && item < kFirstSignatureItem + kSignTypes;
}

Result<IfwiItem> partition_item(std::span<const std::uint8_t> image, std::uint32_t item) {
  const auto address = u32_at(image, kIshAOffset + 0x10);
  if (!address) return past_end(image, kIshAOffset + 0x10);
  const auto size = u32_at(image, kIshAOffset + 0x18);
  if (!size) return past_end(image, kIshAOffset + 0x18);
  return IfwiItem{item, *address, *size, "partition payload of ISH A"};
}

Result<IfwiItem> resolve_unchecked(std::span<const std::uint8_t> image, std::uint32_t item) {
  switch (item) {
  case 0x01: return IfwiItem{item, 0x000000, 0x54, "EFS header (0x55AA55AA)"};
  case 0x02:
    return directory_item(image, item, kPrimaryPspDirectoryOffset, "$PSP",
                          "primary $PSP directory");
  case 0x03:
    return directory_item(image, item, kBackupPspDirectoryOffset, "$PSP", "backup $PSP directory");
  case 0x04: return IfwiItem{item, 0x010000, 0x1000, "region at 0x010000"};
  case 0x05: return IfwiItem{item, 0x011000, 0x1000, "region at 0x011000"};
  case 0x06: return IfwiItem{item, kIshAOffset, kIshSize, "image-slot header A"};
  case 0x07: return IfwiItem{item, kIshBOffset, kIshSize, "image-slot header B"};
  case 0x08: return partition_item(image, item);
  case 0x80: return IfwiItem{item, kSgnPointerOffset, 4, "$SGN table pointer"};
  case 0x81: {
    const auto table = u32_at(image, kSgnPointerOffset);
    if (!table) return past_end(image, kSgnPointerOffset);
    return directory_item(image, item, *table, "$SGN", "$SGN table");
  }
  case 0x89: return IfwiItem{item, 0x1F0000, 0x100, "region at 0x1F0000"};
  default:
    if (is_signature_item(item)) return signature_entry_item(scan_signatures(image), item);
    return Failure{"not an item the host can resolve (known: 0x01-0x08, 0x80-0x89)"};
  }
}

// The bounds check every resolved item passes.
Result<IfwiItem> inside_image(std::span<const std::uint8_t> image, Result<IfwiItem> result) {
  auto *resolved = std::get_if<IfwiItem>(&result);
  if (resolved &&
      (resolved->offset > image.size() || resolved->size > image.size() - resolved->offset)) {
    return Failure{
        fmt::format("{} at {:#08x}..{:#08x} ({:#x} bytes) lies outside the {:#x}-byte image",
                    resolved->description, resolved->offset, resolved->offset + resolved->size,
                    resolved->size, image.size())};
  }
  return result;
}

Result<IfwiItem> resolve(std::span<const std::uint8_t> image, std::uint32_t item) {
  return inside_image(image, resolve_unchecked(image, item));
}

std::string item_error(std::uint32_t item, const Failure &failure) {
  return fmt::format("IFWI item {:#04x}: {}", item, failure.why);
}

}  // namespace

IfwiItem resolve_ifwi_item(std::span<const std::uint8_t> image, std::uint32_t item) {
  auto result = resolve(image, item);
  if (auto *failure = std::get_if<Failure>(&result))
    throw Error(ErrorKind::BadInput, item_error(item, *failure));
  return std::get<IfwiItem>(std::move(result));
}

std::vector<IfwiItemResolution> resolve_all_ifwi_items(std::span<const std::uint8_t> image) {
  std::vector<IfwiItemResolution> out;
  out.reserve(kResolvableIfwiItems.size());
  const auto signatures = scan_signatures(image);
  for (const std::uint32_t item : kResolvableIfwiItems) {
    auto result = is_signature_item(item)
                      ? inside_image(image, signature_entry_item(signatures, item))
                      : resolve(image, item);
    if (auto *failure = std::get_if<Failure>(&result))
      out.push_back({item, std::nullopt, item_error(item, *failure)});
    else
      out.push_back({item, std::get<IfwiItem>(std::move(result)), {}});
  }
  return out;
}

}  // namespace wavescope::hw::ifwi
