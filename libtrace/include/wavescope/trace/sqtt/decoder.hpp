#pragma once
// The streaming SQTT packet decoder (spec §2-§8).
//
// A blob is a string of nibbles; each packet's type comes from the low byte of the 64-bit window
// at its first nibble, through the family's 256-entry table, and its size and fields from the
// type's table entry. The decoder is a resumable state machine: feed it the whole blob at once
// (decode()), or chunk by chunk (feed()/finish(), used by BlobFile for files larger than
// memory). It calls the sink with each Packet by const reference and allocates nothing per packet.
//
// It reproduces tinygrad's reference decode exactly for every packet tinygrad decodes, and differs
// where tinygrad is wrong (each difference is counted in DecodeNotes):
//   * a TS_DELTA_S8_W3 (72 bits) is always consumed as 18 nibbles; tinygrad loses sync when one
//     starts on a byte boundary;
//   * in CDNA streams only the first packet can be a LAYOUT_HEADER; later 0x11/0x91 bytes are
//     CDNA_TIMESTAMPs;
//   * with decode_tail, the complete packets in the last 1-15 nibbles (which tinygrad never
//     decodes) are handed out too, marked in_tail.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"

namespace wavescope::trace::sqtt {

struct DecodeOptions {
  // The family to decode with; nullopt: from the blob's LAYOUT_HEADER (layout 3 -> RDNA3,
  // 4 -> RDNA4, anything else -> CDNA), RDNA3 when there is none (as tinygrad).
  std::optional<Family> family;
  // Also decode the complete packets of the undecoded tail (marked Packet::in_tail).
  bool decode_tail = false;
};

// Where and why the decode deviated from what tinygrad does, or found something unusual.
struct DecodeNotes {
  bool missing_layout_header = false; // the first packet is not a LAYOUT_HEADER
  bool layout_mismatch = false;       // an explicit family disagrees with the header's layout
  std::uint64_t mid_stream_layout_headers = 0;   // RDNA LAYOUT_HEADERs after the first packet
  std::uint64_t byte_aligned_ts_delta_s8_w3 = 0; // where tinygrad would lose sync (spec §2)
  std::uint64_t cdna_header_like_timestamps = 0; // 0x11/0x91 after the start of a CDNA stream
  std::uint64_t unknown_ops = 0;                 // INST op values outside the §9.1 tables
  bool truncated_last_packet = false;            // the last packet runs past the end of the blob

  // True if tinygrad's decode of this blob would differ from ours.
  bool diverges_from_tinygrad() const {
    return byte_aligned_ts_delta_s8_w3 || cdna_header_like_timestamps;
  }
};

struct DecodeSummary {
  Family family = Family::Rdna3;
  std::optional<unsigned> layout;    // the first LAYOUT_HEADER's layout field
  std::uint64_t packets = 0;         // packets of the reference sequence (tail excluded)
  std::uint64_t tail_packets = 0;    // packets decoded from the tail (decode_tail only)
  std::uint64_t decoded_nibbles = 0; // start of the first packet not decoded as reference
  std::uint64_t total_nibbles = 0;   // 2 * blob size
  std::int64_t last_time = 0;
  DecodeNotes notes;

  std::uint64_t undecoded_tail_nibbles() const { return total_nibbles - decoded_nibbles; }
};

class PacketDecoder {
public:
  explicit PacketDecoder(const DecodeOptions &options = {}) : options_(options) {
    family_ = options.family.value_or(Family::Rdna3);
    table_ = &type_table(family_);
  }

  // Decodes a whole blob in memory; returns the summary.
  template <class Sink>
  const DecodeSummary &decode(std::span<const std::uint8_t> blob, Sink &&sink) {
    // The bulk straight from the caller's memory, as long as a 16-byte window fits...
    run(blob.data(), 0, blob.size(), false, sink);
    // ...then the last bytes from a zero-padded copy, with the end-of-blob rule.
    const std::uint64_t from = std::min<std::uint64_t>(nibble_ / 2, blob.size());
    std::uint8_t padded[48] = {};
    if (blob.size() > from)
      std::memcpy(padded, blob.data() + from, blob.size() - from);
    run(padded, from, blob.size(), true, sink);
    return finish(blob.size());
  }

  // Chunked input: `chunk` holds the blob's bytes [chunk_offset, chunk_offset + chunk.size()),
  // starting at or before resume_byte(), followed by at least 32 readable bytes (zero on the last
  // chunk). `last` says it ends the blob. Decodes what can be decoded and returns; call again
  // from resume_byte() with more data.
  template <class Sink>
  void feed(const std::uint8_t *chunk, std::uint64_t chunk_offset, std::size_t chunk_size,
            bool last, Sink &&sink) {
    run(chunk, chunk_offset, chunk_offset + chunk_size, last, sink);
  }
  // The first byte the next feed() must include.
  std::uint64_t resume_byte() const { return nibble_ / 2; }
  const DecodeSummary &finish(std::uint64_t blob_size) {
    summary_.total_nibbles = 2 * blob_size;
    if (!ended_)
      summary_.decoded_nibbles = std::min(nibble_, 2 * blob_size);
    summary_.family = family_;
    summary_.last_time = time_;
    return summary_;
  }
  const DecodeSummary &summary() const { return summary_; }
  Family family() const { return family_; }

private:
  // `data` holds the blob's bytes from `first_byte` on; the blob ends at byte `end`; when
  // `last`, at least 32 zero bytes follow it in memory.
  template <class Sink>
  void run(const std::uint8_t *data, std::uint64_t first_byte, std::uint64_t end, bool last,
           Sink &sink) {
    const std::uint64_t end_nibble = 2 * end;
    const PacketSpec *const specs = all_packet_specs().data();
    while (!stopped_) {
      const std::uint64_t s = nibble_;
      bool in_tail = false;
      if (!last) {
        // Leave the last bytes for the padded/next chunk: a 16-byte load must fit.
        if ((s >> 1) + 16 > end)
          return;
      } else if (s + 16 > end_nibble) {
        // tinygrad stops here: fewer than 16 nibbles left (spec §2 rule 6).
        if (!ended_) {
          ended_ = true;
          summary_.decoded_nibbles = std::min(s, end_nibble);
        }
        if (!options_.decode_tail || s >= end_nibble) {
          stopped_ = true;
          return;
        }
        in_tail = true;
      }
      // The 72-bit window at nibble s.
      const std::uint8_t *p = data + ((s >> 1) - first_byte);
      std::uint64_t lo, hi;
      std::memcpy(&lo, p, 8);
      std::memcpy(&hi, p + 8, 8);
      const bool odd = s & 1;
      Packet packet;
      packet.raw = odd ? (lo >> 4) | (hi << 60) : lo;
      packet.raw_high = static_cast<std::uint8_t>(odd ? hi >> 4 : hi);
      packet.type = (*table_)[packet.raw & 0xFF];
      packet.index = index_;
      packet.nibble = s;
      packet.in_tail = in_tail;
      if (packet.type == PacketType::LayoutHeader)
        on_layout_header(packet);
      const PacketSpec &spec = specs[static_cast<std::size_t>(packet.type)];
      if (s + spec.size_nibbles > end_nibble) {
        if (in_tail) { // a cut-off packet in the tail: nothing more to decode
          stopped_ = true;
          return;
        }
        summary_.notes.truncated_last_packet = true;
      }
      apply_time(packet, spec);
      if (spec.op_field >= 0 &&
          inst_op_name(packet.type, packet.field(spec.fields[spec.op_field])).empty())
        ++summary_.notes.unknown_ops;
      if (packet.type == PacketType::TsDeltaS8W3 && !odd)
        ++summary_.notes.byte_aligned_ts_delta_s8_w3;
      packet.time = time_;
      sink(static_cast<const Packet &>(packet));
      ++index_;
      ++(in_tail ? summary_.tail_packets : summary_.packets);
      nibble_ = s + spec.size_nibbles;
    }
  }

  void on_layout_header(Packet &packet) {
    if (family_ == Family::Cdna && packet.index != 0) {
      // Only the synthetic header opens a CDNA stream; later 0x11/0x91 bytes are timestamps.
      packet.type = PacketType::CdnaTimestamp;
      ++summary_.notes.cdna_header_like_timestamps;
      return;
    }
    const unsigned layout = static_cast<unsigned>((packet.raw >> 7) & 0x3F);
    if (packet.index == 0) {
      summary_.layout = layout;
      if (options_.family) {
        const Family said = layout == 3   ? Family::Rdna3
                            : layout == 4 ? Family::Rdna4
                                          : Family::Cdna;
        summary_.notes.layout_mismatch = said != *options_.family;
      } else {
        family_ = layout == 3 ? Family::Rdna3 : layout == 4 ? Family::Rdna4 : Family::Cdna;
        table_ = &type_table(family_);
        // tinygrad re-reads the first window with the CDNA table; a 0x11 header stays one.
        packet.type = (*table_)[packet.raw & 0xFF];
      }
    } else if (family_ != Family::Cdna) {
      ++summary_.notes.mid_stream_layout_headers;
      if (!options_.family && (layout == 3 || layout == 4)) {
        family_ = layout == 3 ? Family::Rdna3 : Family::Rdna4;
        table_ = &type_table(family_);
      }
    }
  }

  void apply_time(const Packet &packet, const PacketSpec &spec) {
    if (packet.index == 0 && packet.type != PacketType::LayoutHeader)
      summary_.notes.missing_layout_header = true;
    std::uint64_t delta = 0;
    if (spec.delta_field >= 0)
      delta = packet.field(spec.fields[spec.delta_field]);
    switch (spec.time_rule) {
    case TimeRule::None: return;
    case TimeRule::AddDelta: break;
    case TimeRule::AddDeltaPlus4: delta += 4; break;
    case TimeRule::DeltaOrMarker:
      if (packet.is_marker())
        return;
      break;
    case TimeRule::AddDeltaTimes4: delta *= 4; break;
    case TimeRule::CdnaTimestamp: {
      if (((packet.raw >> 4) & 0xFFF) != 0)
        return; // not an absolute timestamp
      const std::uint64_t ts = packet.raw >> 16;
      if (!have_ts_offset_) {
        have_ts_offset_ = true;
        ts_offset_ = ts - static_cast<std::uint64_t>(time_);
      } else {
        time_ = static_cast<std::int64_t>(((ts - ts_offset_) & ~std::uint64_t{3}) - 4);
      }
      return;
    }
    }
    time_ = static_cast<std::int64_t>(static_cast<std::uint64_t>(time_) + delta);
  }

  DecodeOptions options_;
  Family family_;
  const std::array<PacketType, 256> *table_;
  std::uint64_t nibble_ = 0;
  std::uint64_t index_ = 0;
  std::int64_t time_ = 0;
  bool have_ts_offset_ = false;
  std::uint64_t ts_offset_ = 0;
  bool ended_ = false;   // the reference sequence has ended
  bool stopped_ = false; // nothing more will be decoded
  DecodeSummary summary_;
};

// Convenience: decodes a whole blob into `out` (tail packets included with decode_tail).
DecodeSummary decode_packets(std::span<const std::uint8_t> blob, const DecodeOptions &options,
                             std::vector<Packet> &out);

} // namespace wavescope::trace::sqtt
