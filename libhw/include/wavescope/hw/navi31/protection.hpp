#pragma once
// Block protection of the GD25LQ16E: BP4..BP0 in SR1 and CMP in SR2 select one contiguous range
// of the array that erase and program refuse (navi31-flash.md §5.2, table in §10.5).
//
// BP4 selects sector granularity (4–32 KiB) instead of fractions, BP3 the bottom instead of the
// top, BP2..BP0 the amount; CMP = 1 protects the complement. The table follows the GigaDevice /
// Winbond 16 Mbit pattern **[ASSUMPTION until checked against the GD25LQ16E datasheet]**.

#include <cstddef>
#include <cstdint>
#include <string>

namespace wavescope::hw::navi31 {

// [begin, end) byte addresses; empty when begin == end.
struct ProtectedRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;

  bool empty() const { return begin >= end; }
  bool contains(std::uint32_t address) const { return address >= begin && address < end; }
  // True if any byte of [first, first + size) is protected.
  bool intersects(std::uint32_t first, std::uint32_t size) const {
    return !empty() && size != 0 && first < end && first + size > begin;
  }
  // "nothing", "whole array", or "0x1F0000-0x1FFFFF (64 KiB, top)".
  std::string describe(std::size_t flash_size) const;
  bool operator==(const ProtectedRange &) const = default;
};

ProtectedRange protected_range(std::uint8_t sr1, std::uint8_t sr2, std::size_t flash_size);

}  // namespace wavescope::hw::navi31
