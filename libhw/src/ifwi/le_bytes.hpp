#pragma once
// Bounds-checked little-endian reads and writes inside an image (private to the ifwi module).

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace wavescope::hw::ifwi::detail {

inline bool fits(std::span<const std::uint8_t> bytes, std::uint64_t offset, std::uint64_t length) {
  return offset <= bytes.size() && length <= bytes.size() - offset;
}

inline std::optional<std::uint32_t> u32_at(std::span<const std::uint8_t> bytes,
                                           std::uint64_t offset) {
  if (!fits(bytes, offset, 4)) return std::nullopt;
  const auto *p = bytes.data() + offset;
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
         std::uint32_t(p[3]) << 24;
}

inline std::optional<std::uint16_t> u16_at(std::span<const std::uint8_t> bytes,
                                           std::uint64_t offset) {
  if (!fits(bytes, offset, 2)) return std::nullopt;
  return static_cast<std::uint16_t>(bytes[offset] | bytes[offset + 1] << 8);
}

inline bool text_at(std::span<const std::uint8_t> bytes, std::uint64_t offset,
                    std::string_view text) {
  if (!fits(bytes, offset, text.size())) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (bytes[offset + i] != static_cast<std::uint8_t>(text[i])) return false;
  return true;
}

inline void put_u32(std::span<std::uint8_t> bytes, std::uint64_t offset, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

inline void put_u16(std::span<std::uint8_t> bytes, std::uint64_t offset, std::uint16_t value) {
  bytes[offset] = static_cast<std::uint8_t>(value);
  bytes[offset + 1] = static_cast<std::uint8_t>(value >> 8);
}

inline void put_text(std::span<std::uint8_t> bytes, std::uint64_t offset, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    bytes[offset + i] = static_cast<std::uint8_t>(text[i]);
}

}  // namespace wavescope::hw::ifwi::detail
