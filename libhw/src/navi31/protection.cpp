#include "wavescope/hw/navi31/protection.hpp"

#include <fmt/format.h>

#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::navi31 {

namespace {

// Bytes selected by BP2..BP0 (CMP = 0): fractions of the array, or small sector counts with SEC.
std::uint32_t selected_bytes(unsigned bp, bool sectors, std::uint32_t size) {
  if (bp == 0) return 0;
  if (bp >= 6) return size;
  if (sectors) {
    static constexpr std::uint32_t kSectorBytes[] = {0, 0x1000, 0x2000, 0x4000, 0x8000, 0x8000};
    return kSectorBytes[bp];
  }
  // 001 = 1/32 ... 101 = 1/2 of the array.
  return size >> (6 - bp);
}

}  // namespace

ProtectedRange protected_range(std::uint8_t sr1, std::uint8_t sr2, std::size_t flash_size) {
  const auto size = static_cast<std::uint32_t>(flash_size);
  const unsigned bp = (sr1 >> 2) & 0x7;
  const bool bottom = (sr1 & (1u << 5)) != 0;   // BP3 = TB
  const bool sectors = (sr1 & (1u << 6)) != 0;  // BP4 = SEC
  const bool cmp = (sr2 & kSr2Cmp) != 0;
  const std::uint32_t amount = selected_bytes(bp, sectors, size);

  ProtectedRange range;
  if (amount >= size) {
    range = {0, size};
  } else if (amount == 0) {
    range = {0, 0};
  } else if (bottom) {
    range = {0, amount};
  } else {
    range = {size - amount, size};
  }
  if (!cmp) return range;
  // The complement of one contiguous range that touches an end of the array is contiguous too.
  if (range.empty()) return {0, size};
  if (range.begin == 0 && range.end == size) return {0, 0};
  if (range.begin == 0) return {range.end, size};
  return {0, range.begin};
}

std::string ProtectedRange::describe(std::size_t flash_size) const {
  if (empty()) return "nothing";
  if (begin == 0 && end == flash_size) return "whole array";
  const std::uint32_t bytes = end - begin;
  const std::string amount = bytes % 0x100000 == 0 ? fmt::format("{} MiB", bytes / 0x100000)
                                                   : fmt::format("{} KiB", bytes / 0x400);
  return fmt::format("0x{:06X}-0x{:06X} ({}, {})", begin, end - 1, amount,
                     begin == 0 ? "bottom" : "top");
}

}  // namespace wavescope::hw::navi31
