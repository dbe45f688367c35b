#pragma once
// The integrity functions of Navi31 IFWI images (navi31-flash.md §10.12): AMD's Fletcher-32
// directory checksum, the IEEE CRC-32 the synthesized image uses for $SGN and image-slot headers,
// and the xorshift32 byte stream that fills the synthesized image deterministically. An image's
// identity is its SHA-256 (wavescope/base/sha256.hpp).

#include <cstdint>
#include <span>
#include <vector>

namespace wavescope::hw::ifwi {

// AMD directory checksum: Fletcher-32 over little-endian 16-bit words, modulo 0xFFFF, both sums
// starting at 0xFFFF. An odd trailing byte counts as a word with a zero high byte.
std::uint32_t fletcher32(std::span<const std::uint8_t> bytes);

// IEEE 802.3 / zlib CRC-32.
std::uint32_t crc32(std::span<const std::uint8_t> bytes);

// xorshift32 (13, 17, 5) started at `seed` (0 is replaced by 0x6B43A9B5), each state emitted as
// four little-endian bytes, truncated to `count` bytes.
std::vector<std::uint8_t> xorshift_bytes(std::uint32_t seed, std::size_t count);

}  // namespace wavescope::hw::ifwi
