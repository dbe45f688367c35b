#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::trace::sqtt {
namespace {

DecodeEntry entry_for(const PacketSpec &spec) {
  DecodeEntry d;
  d.type = spec.type;
  d.size = spec.size_nibbles;
  std::uint64_t delta_mask = 0;
  if (spec.delta_field >= 0) {
    d.delta_lo = spec.fields[spec.delta_field].lo;
    delta_mask = spec.fields[spec.delta_field].mask();
  }
  switch (spec.time_rule) {
  case TimeRule::None: delta_mask = 0; break;
  case TimeRule::AddDelta: break;
  case TimeRule::AddDeltaPlus4: d.add = 4; break;
  case TimeRule::AddDeltaTimes4: d.delta_shift = 2; break;
  case TimeRule::DeltaOrMarker: d.flags |= DecodeEntry::kMarker; break;
  case TimeRule::CdnaTimestamp: d.flags |= DecodeEntry::kTimestamp; break;
  }
  // The hot loop shifts the delta right by delta_lo - delta_shift (CDNA_MISC: 4 - 2).
  d.time_lo = static_cast<std::uint8_t>(d.delta_lo - d.delta_shift);
  d.time_mask = delta_mask << d.delta_shift;
  if (spec.type == PacketType::Nop) d.flags |= DecodeEntry::kNop;
  if (spec.type == PacketType::LayoutHeader || spec.type == PacketType::TsDeltaS8W3)
    d.flags |= DecodeEntry::kSpecial;
  if (spec.op_field >= 0) d.flags |= DecodeEntry::kInst;
  return d;
}

NamedOps make_named_ops(PacketType inst_type) {
  const PacketSpec &spec = packet_spec(inst_type);
  const FieldSpec &op = spec.fields[spec.op_field];
  NamedOps n;
  n.lo = op.lo;
  n.mask = op.mask();
  for (std::uint64_t v = 0; v <= n.mask; ++v)
    if (!inst_op_name(inst_type, v).empty()) n.bits[v >> 6] |= std::uint64_t{1} << (v & 63);
  return n;
}

}  // namespace

const NamedOps &named_ops(Family family) {
  static const std::array<NamedOps, 3> ops = {make_named_ops(PacketType::Inst),
                                              make_named_ops(PacketType::InstRdna4),
                                              make_named_ops(PacketType::CdnaInst)};
  return ops[static_cast<std::size_t>(family)];
}

const DecodeEntry *decode_entries_by_type() {
  static const std::array<DecodeEntry, kPacketTypeCount> entries = [] {
    std::array<DecodeEntry, kPacketTypeCount> out{};
    for (const auto &spec : all_packet_specs())
      out[static_cast<std::size_t>(spec.type)] = entry_for(spec);
    return out;
  }();
  return entries.data();
}

const DecodeEntry *decode_entries_by_byte(Family family) {
  static const auto tables = [] {
    std::array<std::array<DecodeEntry, 256>, 3> out{};
    for (int f = 0; f < 3; ++f)
      for (unsigned b = 0; b < 256; ++b)
        out[f][b] = decode_entries_by_type()[static_cast<std::size_t>(
            type_table(static_cast<Family>(f))[b])];
    return out;
  }();
  return tables[static_cast<std::size_t>(family)].data();
}

const DecodeSummary &PacketDecoder::finish(std::uint64_t blob_size) {
  summary_.total_nibbles = 2 * blob_size;
  if (!ended_) summary_.decoded_nibbles = std::min(nibble_, 2 * blob_size);
  summary_.family = family_;
  summary_.last_time = time_;
  return summary_;
}

const DecodeEntry *PacketDecoder::special(Packet &packet, std::int64_t &time) {
  if (packet.type == PacketType::LayoutHeader) on_layout_header(packet);
  const DecodeEntry *e = &decode_entries_by_type()[static_cast<std::size_t>(packet.type)];
  if (packet.type == PacketType::TsDeltaS8W3 && !(packet.nibble & 1))
    ++summary_.notes.byte_aligned_ts_delta_s8_w3;
  if ((e->flags & DecodeEntry::kInst) && !named_ops(family_of(packet.type)).names_op_of(packet.raw))
    ++summary_.notes.unknown_ops;
  if (e->flags & DecodeEntry::kMarker) {
    if (packet.is_marker()) return e;  // the field holds a realtime sample, not a delta
  } else if (e->flags & DecodeEntry::kTimestamp) {
    if (((packet.raw >> 4) & 0xFFF) != 0) return e;  // not an absolute timestamp
    const std::uint64_t ts = packet.raw >> 16;
    if (!have_ts_offset_) {
      have_ts_offset_ = true;
      ts_offset_ = ts - static_cast<std::uint64_t>(time);
    } else {
      time = static_cast<std::int64_t>(((ts - ts_offset_) & ~std::uint64_t{3}) - 4);
    }
    return e;
  }
  time = static_cast<std::int64_t>(static_cast<std::uint64_t>(time) + e->time_step(packet.raw));
  return e;
}

void PacketDecoder::on_layout_header(Packet &packet) {
  if (family_ == Family::Cdna && packet.index != 0) {
    // Only the synthetic header opens a CDNA stream; later 0x11/0x91 bytes are timestamps.
    packet.type = PacketType::CdnaTimestamp;
    ++summary_.notes.cdna_header_like_timestamps;
    return;
  }
  const unsigned layout = static_cast<unsigned>((packet.raw >> 7) & 0x3F);
  auto family_of_layout = [](unsigned l) {
    return l == 3 ? Family::Rdna3 : l == 4 ? Family::Rdna4 : Family::Cdna;
  };
  if (packet.index == 0) {
    summary_.layout = layout;
    if (options_.family) {
      summary_.notes.layout_mismatch = family_of_layout(layout) != *options_.family;
    } else {
      set_family(family_of_layout(layout));
      // tinygrad re-reads the first window with the CDNA table; a 0x11 header stays one.
      packet.type = by_byte_[packet.raw & 0xFF].type;
    }
  } else if (family_ != Family::Cdna) {
    ++summary_.notes.mid_stream_layout_headers;
    if (!options_.family && (layout == 3 || layout == 4)) set_family(family_of_layout(layout));
  }
}

DecodeSummary decode_packets(std::span<const std::uint8_t> blob, const DecodeOptions &options,
                             std::vector<Packet> &out) {
  PacketDecoder decoder(options);
  return decoder.decode(blob, [&](const Packet &p) { out.push_back(p); });
}

}  // namespace wavescope::trace::sqtt
