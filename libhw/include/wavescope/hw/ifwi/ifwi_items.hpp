#pragma once
// IFWI item resolution for the PSP recovery stream (`psp ifwi-all`, navi31-flash.md §7.5): the PSP
// asks for items by number and the host sends the byte range each one names in a 2 MiB image.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wavescope::hw::ifwi {

struct IfwiItem {
  std::uint32_t item = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::string description;  // e.g. "primary $PSP directory", "$SGN entry of sign type 3"
};

// The items the host can resolve: 0x01-0x08, 0x80-0x89 (18; Navi31 is configured for 19 —
// the 19th is unknown, navi31-flash.md §7.5).
inline constexpr std::array<std::uint32_t, 18> kResolvableIfwiItems = {
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x80,
    0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89};

// Resolves one item; throws wavescope::Error (BadInput) for an unsupported item, a missing
// structure or a range outside the image, naming the item and the offsets involved.
IfwiItem resolve_ifwi_item(std::span<const std::uint8_t> image, std::uint32_t item);

// Every resolvable item, each either resolved or with the reason it is not (never throws).
struct IfwiItemResolution {
  std::uint32_t item = 0;
  std::optional<IfwiItem> resolved;
  std::string error;
};
std::vector<IfwiItemResolution> resolve_all_ifwi_items(std::span<const std::uint8_t> image);

}  // namespace wavescope::hw::ifwi
