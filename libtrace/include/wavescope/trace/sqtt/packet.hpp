#pragma once
// One decoded SQTT packet: a small value the decoder hands to its sink without allocating. The
// fields are read from the raw bits through the type's table (packet_types.hpp).

#include <cstdint>
#include <string_view>

#include "wavescope/trace/sqtt/packet_types.hpp"

namespace wavescope::trace::sqtt {

struct Packet {
  std::uint64_t index = 0;    // position in the blob's packet sequence (0-based)
  std::uint64_t nibble = 0;   // offset of the first nibble (nibble 2k = low half of byte k)
  std::int64_t time = 0;      // running time after this packet's own adjustment (spec §8)
  std::uint64_t raw = 0;      // bits 0..63 from the first nibble on (bits past the size belong to
                              // the following packets, or are zero past the end of the blob)
  std::uint8_t raw_high = 0;  // bits 64..71: only the 72-bit TS_DELTA_S8_W3 has any
  PacketType type = PacketType::Nop;
  // Past the point where tinygrad stops (fewer than 16 nibbles left at its start, spec §2):
  // decoded only with DecodeOptions::decode_tail, and not part of the reference sequence.
  bool in_tail = false;

  const PacketSpec &spec() const { return packet_spec(type); }
  unsigned size_nibbles() const { return spec().size_nibbles; }
  // A field's value (bits past 63 read as zero).
  std::uint64_t field(const FieldSpec &f) const { return (raw >> f.lo) & f.mask(); }
  // A field by name; 0 when the type has no such field.
  std::uint64_t field(std::string_view name) const {
    const FieldSpec *f = spec().field(name);
    return f ? field(*f) : 0;
  }
  // The packet's own bits (bits 0..63 masked to its size).
  std::uint64_t own_bits() const {
    const unsigned bits = 4u * size_nibbles();
    return bits >= 64 ? raw : raw & ((1ull << bits) - 1);
  }
  // A realtime marker: TS_DELTA_OR_MARK* with rt=1 and pl=0; its delta is a 100 MHz clock sample.
  bool is_marker() const {
    if (type == PacketType::TsDeltaOrMark) return ((raw >> 9) & 1) && !((raw >> 8) & 1);
    if (type == PacketType::TsDeltaOrMarkRdna4) return ((raw >> 7) & 1) && !((raw >> 8) & 1);
    return false;
  }
};

}  // namespace wavescope::trace::sqtt
