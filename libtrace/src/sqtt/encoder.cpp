#include "wavescope/trace/sqtt/encoder.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::trace::sqtt {

std::uint64_t encode_packet_bits(PacketType type, FieldValues fields, std::uint64_t other_bits) {
  return encode_packet_bits(
      type,
      std::span<const std::pair<std::string_view, std::uint64_t>>(fields.begin(), fields.size()),
      other_bits);
}

std::uint64_t uncovered_bits(const Packet &packet) {
  const PacketSpec &spec = packet.spec();
  std::uint64_t covered = spec.encoding_mask();
  for (const auto &f : spec.fields) covered |= f.lo < 64 ? f.mask() << f.lo : 0;
  return packet.own_bits() & ~covered;
}

std::uint64_t encode_packet_bits(PacketType type,
                                 std::span<const std::pair<std::string_view, std::uint64_t>> fields,
                                 std::uint64_t other_bits) {
  const PacketSpec &spec = packet_spec(type);
  std::uint64_t bits = spec.encoding | other_bits;
  for (const auto &[name, value] : fields) {
    const FieldSpec *f = spec.field(name);
    if (!f) throw Error(ErrorKind::Usage, fmt::format("{} has no field \"{}\"", spec.name, name));
    if (value & ~f->mask())
      throw Error(ErrorKind::Usage, fmt::format("{}.{} = {:#x} does not fit in {} bits", spec.name,
                                                name, value, f->width));
    bits |= value << f->lo;
  }
  return bits;
}

PacketWriter &PacketWriter::add(PacketType type, FieldValues fields, std::uint64_t other_bits) {
  return add_bits(type, encode_packet_bits(type, fields, other_bits));
}

PacketWriter &PacketWriter::add(const Packet &packet) {
  return add_bits(packet.type, packet.own_bits(), packet.raw_high);
}

PacketWriter &PacketWriter::add_bits(PacketType type, std::uint64_t bits, std::uint8_t high) {
  const unsigned n = packet_spec(type).size_nibbles;
  for (unsigned i = 0; i < n; ++i)
    put(static_cast<std::uint8_t>(i < 16 ? (bits >> (4 * i)) & 0xF
                                         : (high >> (4 * (i - 16))) & 0xF));
  return *this;
}

PacketWriter &PacketWriter::nops(std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) put(0);
  return *this;
}

PacketWriter &PacketWriter::nibble(std::uint8_t value) {
  put(value & 0xF);
  return *this;
}

void PacketWriter::put(std::uint8_t nibble) {
  if (nibbles_ % 2 == 0)
    bytes_.push_back(nibble);
  else
    bytes_.back() = static_cast<std::uint8_t>(bytes_.back() | (nibble << 4));
  ++nibbles_;
}

std::vector<std::uint8_t> PacketWriter::finish(std::size_t alignment) {
  if (nibbles_ % 2) put(0);
  while (alignment > 1 && bytes_.size() % alignment) put(0), put(0);
  return bytes_;
}

std::uint64_t cdna_synthetic_header(unsigned blob_index) {
  return 0x11u | (4u << 13) | (0xFu << 16) | (std::uint64_t{blob_index & 0xFF} << 24);
}

}  // namespace wavescope::trace::sqtt
