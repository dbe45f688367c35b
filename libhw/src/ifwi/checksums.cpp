#include "wavescope/hw/ifwi/checksums.hpp"

#include <algorithm>

#include <zlib.h>

namespace wavescope::hw::ifwi {

std::uint32_t fletcher32(std::span<const std::uint8_t> bytes) {
  // Sums are reduced mod 0xFFFF once per block instead of once per word: the same residues, and a
  // block of 2^16 words keeps both sums far below 2^64. An empty body keeps the 0xFFFF seeds.
  std::uint64_t c0 = 0xFFFF;
  std::uint64_t c1 = 0xFFFF;
  constexpr std::size_t kBlock = std::size_t{1} << 17;  // bytes
  for (std::size_t start = 0; start < bytes.size(); start += kBlock) {
    const std::size_t end = std::min(bytes.size(), start + kBlock);
    for (std::size_t i = start; i < end; i += 2) {
      c0 += bytes[i] | (i + 1 < end ? bytes[i + 1] << 8 : 0u);
      c1 += c0;
    }
    c0 %= 0xFFFF;
    c1 %= 0xFFFF;
  }
  return static_cast<std::uint32_t>(c1 << 16 | c0);
}

std::uint32_t crc32(std::span<const std::uint8_t> bytes) {
  // zlib's crc32 takes a 32-bit length: feed it in chunks.
  uLong crc = ::crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < bytes.size();) {
    const auto n = static_cast<uInt>(std::min<std::size_t>(bytes.size() - at, 1u << 30));
    crc = ::crc32(crc, bytes.data() + at, n);
    at += n;
  }
  return static_cast<std::uint32_t>(crc);
}

std::vector<std::uint8_t> xorshift_bytes(std::uint32_t seed, std::size_t count) {
  std::vector<std::uint8_t> out;
  out.reserve(count + 3);
  std::uint32_t x = seed == 0 ? 0x6B43A9B5u : seed;
  while (out.size() < count) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  }
  out.resize(count);
  return out;
}

}  // namespace wavescope::hw::ifwi
