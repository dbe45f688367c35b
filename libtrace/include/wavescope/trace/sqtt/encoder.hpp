#pragma once
// Building SQTT streams from packets: the inverse of the decoder, for tests (streams the corpus
// lacks) and for tools that rewrite traces. encode(decode(blob)) == blob for every blob.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"

namespace wavescope::trace::sqtt {

using FieldValues = std::initializer_list<std::pair<std::string_view, std::uint64_t>>;

// The bits of a packet of `type` with the given field values (unnamed fields are 0) and
// `other_bits` OR-ed in (bits no field covers, e.g. padding). Throws Error(Usage) for an unknown
// field name or a value wider than its field.
std::uint64_t encode_packet_bits(PacketType type, FieldValues fields, std::uint64_t other_bits = 0);
std::uint64_t encode_packet_bits(PacketType type,
                                 std::span<const std::pair<std::string_view, std::uint64_t>> fields,
                                 std::uint64_t other_bits = 0);
// The bits of a packet that no field covers (padding, gaps between fields).
std::uint64_t uncovered_bits(const Packet &packet);

class PacketWriter {
public:
  // Appends a packet built from field values.
  PacketWriter &add(PacketType type, FieldValues fields = {}, std::uint64_t other_bits = 0);
  // Appends a decoded packet's own bits unchanged.
  PacketWriter &add(const Packet &packet);
  // Appends `size_nibbles(type)` nibbles of `bits` (and `high` for bits 64..71).
  PacketWriter &add_bits(PacketType type, std::uint64_t bits, std::uint8_t high = 0);
  // Appends `count` NOP nibbles.
  PacketWriter &nops(std::size_t count);
  // Appends nibbles (low 4 bits of each value), e.g. a cut-off packet.
  PacketWriter &nibble(std::uint8_t value);

  std::uint64_t nibbles() const { return nibbles_; }
  // The stream so far; an odd trailing nibble is completed with a zero (NOP) nibble.
  const std::vector<std::uint8_t> &bytes() const { return bytes_; }
  // Pads with NOPs to a multiple of `alignment` bytes, as the hardware write pointer does (32).
  std::vector<std::uint8_t> finish(std::size_t alignment = 32);

private:
  void put(std::uint8_t nibble);
  std::vector<std::uint8_t> bytes_;
  std::uint64_t nibbles_ = 0;
};

// The 8-byte header tinygrad's runtime prepends to CDNA blobs: 0x11 | 4<<13 | 0xF<<16 | index<<24.
std::uint64_t cdna_synthetic_header(unsigned blob_index);

}  // namespace wavescope::trace::sqtt
