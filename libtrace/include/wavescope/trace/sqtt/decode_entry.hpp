#pragma once
// What the decoder's hot loop needs of each packet type, in tables indexed by a packet's low
// byte: its type, size, time rule and whether it needs more than the straight path
// (decoder.hpp), and which INST op values have names.

#include <cstdint>

#include "wavescope/trace/sqtt/packet_types.hpp"

namespace wavescope::trace::sqtt {

// What the hot loop needs of a packet type, in one 16-byte entry.
struct DecodeEntry {
  PacketType type = PacketType::Nop;
  std::uint8_t size = 1;   // nibbles
  std::uint8_t flags = 0;  // kSpecial, kTimestamp, kMarker, kInst, kNop
  std::uint8_t delta_lo = 0;
  std::uint8_t delta_shift = 0;
  std::uint8_t add = 0;
  // time += (((raw >> delta_lo) & delta_mask) << delta_shift) + add, computed with the delta
  // already shifted into place (delta_lo >= delta_shift for every type).
  std::uint8_t time_lo = 0;
  std::uint64_t time_mask = 0;  // 0 for types that do not move the time

  std::uint64_t delta_mask() const { return time_mask >> delta_shift; }
  std::uint64_t time_step(std::uint64_t raw) const { return ((raw >> time_lo) & time_mask) + add; }

  // The packets that leave the hot loop's straight path. Out of line (PacketDecoder::special):
  // layout headers (which may switch the family), TS_DELTA_S8_W3 (a divergence from tinygrad to
  // count) and CDNA_TIMESTAMP (re-anchoring).
  static constexpr std::uint8_t kSpecial = 1;
  static constexpr std::uint8_t kTimestamp = 2;
  // Common enough to be handled in the loop itself:
  static constexpr std::uint8_t kMarker = 4;  // TS_DELTA_OR_MARK*: + delta unless a marker
  static constexpr std::uint8_t kInst = 8;    // INST types: count op values without a name
  static constexpr std::uint8_t kNop = 16;    // NOP: starts a run, handed out in one go
  // What the end-of-blob path (one packet at a time) sends to PacketDecoder::special.
  static constexpr std::uint8_t kAnySpecial = kSpecial | kTimestamp | kMarker | kInst;
};
// The entries of a family's 256 low-byte values, and of every type (after an override).
const DecodeEntry *decode_entries_by_byte(Family family);
const DecodeEntry *decode_entries_by_type();

// Which op values of an INST type have a name (spec §9.1), as a bit set; the others are counted
// in DecodeNotes::unknown_ops.
struct NamedOps {
  std::uint8_t lo = 0;  // the op field
  std::uint64_t mask = 0;
  std::uint64_t bits[4] = {};  // bit v: op value v has a name (op fields are at most 8 bits)

  bool names_op_of(std::uint64_t raw) const {
    const std::uint64_t op = (raw >> lo) & mask;
    return (bits[op >> 6] >> (op & 63)) & 1;
  }
};
// The named ops of `family`'s INST type.
const NamedOps &named_ops(Family family);

}  // namespace wavescope::trace::sqtt
