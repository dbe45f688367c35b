#include "wavescope/hw/navi31/spi_flash_facts.hpp"

#include <array>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::navi31 {

namespace {
// Parts a user may find on a board or an adapter. Only the GD25LQ16E is what Navi31 boards carry
// and what the write path accepts; the others are named so a mismatch message says what it saw.
constexpr std::array kParts = {
    KnownFlashPart{0xC8, 0x60, 0x15, "GigaDevice GD25LQ16E (1.8 V, 16 Mbit)", 0x200000, true},
    KnownFlashPart{0xC8, 0x60, 0x14, "GigaDevice GD25LQ80 (1.8 V, 8 Mbit)", 0x100000, false},
    KnownFlashPart{0xC8, 0x60, 0x16, "GigaDevice GD25LQ32 (1.8 V, 32 Mbit)", 0x400000, false},
    KnownFlashPart{0xC8, 0x40, 0x15, "GigaDevice GD25Q16 (3 V, 16 Mbit)", 0x200000, false},
    KnownFlashPart{0xEF, 0x60, 0x15, "Winbond W25Q16FW (1.8 V, 16 Mbit)", 0x200000, false},
    KnownFlashPart{0xEF, 0x40, 0x15, "Winbond W25Q16 (3 V, 16 Mbit)", 0x200000, false},
    KnownFlashPart{0xC2, 0x25, 0x35, "Macronix MX25U1635 (1.8 V, 16 Mbit)", 0x200000, false},
};
}  // namespace

std::optional<KnownFlashPart> find_flash_part(std::uint8_t manufacturer, std::uint8_t type,
                                              std::uint8_t capacity) {
  for (const auto &part : kParts) {
    if (part.manufacturer == manufacturer && part.type == type && part.capacity == capacity)
      return part;
  }
  return std::nullopt;
}

bool contains_jedec_cyclically(std::span<const std::uint8_t> capture, std::uint8_t m,
                               std::uint8_t t, std::uint8_t c) {
  const std::size_t n = capture.size();
  if (n == 0) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (capture[i] == m && capture[(i + 1) % n] == t && capture[(i + 2) % n] == c) return true;
  }
  return false;
}

std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += ' ';
    out += fmt::format("{:02X}", bytes[i]);
  }
  return out;
}

void check_flash_image_size(std::size_t size, std::string_view name) {
  if (size != kFlashSize)
    throw Error(
        ErrorKind::BadInput,
        fmt::format("image {} is {} bytes; a Navi31 flash image is exactly 2 MiB ({} bytes)", name,
                    size, kFlashSize));
}

void check_flash_range(std::uint64_t address, std::uint64_t size) {
  if (address > kFlashSize || size > kFlashSize - address)
    throw Error(ErrorKind::Usage,
                fmt::format("range 0x{:X}+0x{:X} is outside the 2 MiB flash", address, size));
}

}  // namespace wavescope::hw::navi31
