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
//
// Speed (docs/sqtt.md, "Performance"): the stream is decoded in blocks; a SIMD pre-pass computes
// the size of a packet at every nibble of a block (block_scan.hpp), so the step from one packet
// to the next is short, and the walk predicts that step; per-type facts come from one 16-byte
// entry per low byte (decode_entry.hpp); rare packets go out of line.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "wavescope/trace/sqtt/block_scan.hpp"
#include "wavescope/trace/sqtt/decode_entry.hpp"
#include "wavescope/trace/sqtt/packet.hpp"

namespace wavescope::trace::sqtt {

struct DecodeOptions {
  // The family to decode with; nullopt: from the blob's LAYOUT_HEADER (layout 3 -> RDNA3,
  // 4 -> RDNA4, anything else -> CDNA), RDNA3 when there is none (as tinygrad).
  std::optional<Family> family;
  // Also decode the complete packets of the undecoded tail (marked Packet::in_tail).
  bool decode_tail = false;
  // Use the SIMD block pre-pass (block_scan.hpp) where the CPU has one. false takes the path
  // of CPUs without one: the same packets, for tests and benchmarks.
  bool simd = true;
};

// Where and why the decode deviated from what tinygrad does, or found something unusual.
struct DecodeNotes {
  bool missing_layout_header = false;  // the first packet is not a LAYOUT_HEADER
  bool layout_mismatch = false;        // an explicit family disagrees with the header's layout
  std::uint64_t mid_stream_layout_headers = 0;    // RDNA LAYOUT_HEADERs after the first packet
  std::uint64_t byte_aligned_ts_delta_s8_w3 = 0;  // where tinygrad would lose sync (spec §2)
  std::uint64_t cdna_header_like_timestamps = 0;  // 0x11/0x91 after the start of a CDNA stream
  std::uint64_t unknown_ops = 0;                  // INST op values outside the §9.1 tables
  bool truncated_last_packet = false;             // the last packet runs past the end of the blob

  // True if tinygrad's decode of this blob would differ from ours.
  bool diverges_from_tinygrad() const {
    return byte_aligned_ts_delta_s8_w3 || cdna_header_like_timestamps;
  }
};

struct DecodeSummary {
  Family family = Family::Rdna3;
  std::optional<unsigned> layout;     // the first LAYOUT_HEADER's layout field
  std::uint64_t packets = 0;          // packets of the reference sequence (tail excluded)
  std::uint64_t tail_packets = 0;     // packets decoded from the tail (decode_tail only)
  std::uint64_t decoded_nibbles = 0;  // start of the first packet not decoded as reference
  std::uint64_t total_nibbles = 0;    // 2 * blob size
  std::int64_t last_time = 0;         // after the last decoded packet (tail included if decoded)
  DecodeNotes notes;

  std::uint64_t undecoded_tail_nibbles() const { return total_nibbles - decoded_nibbles; }
};

// A sink may take runs of NOPs (filler, more than half of most blobs) in one call:
// on_nops(first, count) stands for `count` NOP packets from `first` on (consecutive indices and
// nibbles, same time). Sinks without it get one call per NOP.
template <class Sink>
concept AcceptsNopRuns = requires(Sink &sink, const Packet &packet) {
  sink.on_nops(packet, 1u);
};

class PacketDecoder {
public:
  explicit PacketDecoder(const DecodeOptions &options = {})
      : options_(options), scanned_(options.simd && best_scan_kernel() != ScanKernel::Portable) {
    set_family(options.family.value_or(Family::Rdna3));
  }

  // Decodes a whole blob in memory; returns the summary.
  template <class Sink>
  const DecodeSummary &decode(std::span<const std::uint8_t> blob, Sink &&sink) {
    // The bulk straight from the caller's memory, as long as a 16-byte window fits...
    run(blob.data(), 0, blob.size(), false, sink);
    // ...then the last bytes from a zero-padded copy, with the end-of-blob rule.
    const std::uint64_t from = std::min<std::uint64_t>(nibble_ / 2, blob.size());
    std::uint8_t padded[64] = {};
    if (blob.size() > from) std::memcpy(padded, blob.data() + from, blob.size() - from);
    run(padded, from, blob.size(), true, sink);
    return finish(blob.size());
  }

  // Chunked input: `chunk` holds the blob's bytes [chunk_offset, chunk_offset + chunk_size),
  // starting at or before resume_byte(), followed by at least 32 readable bytes (zero on the
  // last chunk). `last` says it ends the blob. Decodes what can be decoded and returns; call
  // again from resume_byte() with more data.
  template <class Sink>
  void feed(const std::uint8_t *chunk, std::uint64_t chunk_offset, std::size_t chunk_size,
            bool last, Sink &&sink) {
    run(chunk, chunk_offset, chunk_offset + chunk_size, last, sink);
  }
  // The first byte the next feed() must include.
  std::uint64_t resume_byte() const { return nibble_ / 2; }
  const DecodeSummary &finish(std::uint64_t blob_size);
  const DecodeSummary &summary() const { return summary_; }
  Family family() const { return family_; }

private:
  __extension__ typedef unsigned __int128 u128;

  // `data` holds the blob's bytes from `first_byte` on; the blob ends at byte `end`; when
  // `last`, at least 32 zero bytes follow it in memory.
  //
  // Block by block: with a SIMD kernel, first the sizes of packets at every nibble of the block
  // (block_scan.hpp says why), then the walk from packet to packet through them. Without one,
  // the walk reads each packet's size from its entry: scanning byte by byte would cost more than
  // it saves.
  template <class Sink>
  void run(const std::uint8_t *data, std::uint64_t first_byte, std::uint64_t end, bool last,
           Sink &sink) {
    if (stopped_) return;
    const std::uint64_t end_nibble = 2 * end;
    // Packets starting at or before `fast_end` need no end-of-data checks: their 16-byte load
    // and their whole size (at most 18 nibbles) lie inside the data.
    const std::int64_t fast_end =
        last ? std::int64_t(end_nibble) - 18 : std::int64_t(end_nibble) - 32;
    std::uint64_t s = nibble_;
    if (index_ == 0 && std::int64_t(s) <= fast_end &&
        by_byte_[data[(s >> 1) - first_byte]].type != PacketType::LayoutHeader)
      summary_.notes.missing_layout_header = true;

    const std::uint64_t index_before = index_;
    BlockScan scan;
    while (std::int64_t(s) <= fast_end) {
      // A block starts on a byte boundary and holds packet starts up to fast_end, so the scan
      // reads only bytes a packet there may read.
      const std::uint64_t base = s & ~std::uint64_t{1};
      const auto count = static_cast<unsigned>(
          std::min<std::int64_t>(BlockScan::kNibbles, fast_end + 1 - std::int64_t(base)));
      const std::uint8_t *block = data + (base / 2 - first_byte);
      if (scanned_) {
        scan_block(family_, block, count, scan);
        s = base + walk_block<true>(block, &scan, s - base, count, base, sink);
      } else {
        s = base + walk_block<false>(block, nullptr, s - base, count, base, sink);
      }
    }
    summary_.packets += index_ - index_before;
    nibble_ = s;
    if (last) run_end(data, first_byte, end_nibble, sink);
  }

  // Decodes the packets starting at block nibbles [r, count) (the block starts at blob nibble
  // `base`); returns the block nibble after the last packet, or after a layout header that
  // switched the family (the scan's sizes and the local tables are the old family's). With
  // kScanned, `scan` holds the block's pre-pass.
  template <bool kScanned, class Sink>
  std::size_t walk_block(const std::uint8_t *block, const BlockScan *scan, std::size_t r,
                         std::size_t count, std::uint64_t base, Sink &sink) {
    const DecodeEntry *const by_byte = by_byte_;
    // The bytes from nibble r on: the block's own for even r, the shifted copy's for odd r.
    const std::uint8_t *const bytes_at[2] = {block, kScanned ? scan->shifted : nullptr};
    std::uint64_t index = index_;
    std::int64_t time = time_;
    constexpr std::uint8_t kRare = DecodeEntry::kAnySpecial | DecodeEntry::kNop;
    const NamedOps *const inst_ops = inst_ops_;
    // Bits 0..63 and 64..71 from block nibble r on: the shifted copy's bytes for odd r with the
    // pre-pass, else two loads and a funnel shift by 0 or 4 bits ((hi << 1) << 63 is 0). Apart,
    // so the compiler drops the high bits where the sink does not read them.
    const auto bits_at = [&](std::size_t r_at) -> std::uint64_t {
      const std::uint8_t *bytes = bytes_at[kScanned ? r_at & 1 : 0] + r_at / 2;
      std::uint64_t lo;
      std::memcpy(&lo, bytes, 8);
      if constexpr (kScanned) {
        return lo;
      } else {
        std::uint64_t hi;
        std::memcpy(&hi, bytes + 8, 8);
        const unsigned shift = 4 * (r_at & 1);
        return (lo >> shift) | ((hi << 1) << (63 - shift));
      }
    };
    const auto high_bits_at = [&](std::size_t r_at) {
      const std::uint8_t *bytes = bytes_at[kScanned ? r_at & 1 : 0] + r_at / 2;
      return static_cast<std::uint8_t>(kScanned ? bytes[8]
                                                : (bytes[8] | bytes[9] << 8) >> (4 * (r_at & 1)));
    };
    std::size_t last_size = 1;
    Packet packet;
    while (r < count) {
      packet.raw = bits_at(r);
      const DecodeEntry *e = &by_byte[packet.raw & 0xFF];
      packet.type = e->type;
      packet.index = index;
      packet.nibble = base + r;
      std::uint64_t step = e->time_step(packet.raw);
      if (e->flags & kRare) [[unlikely]] {
        packet.raw_high = high_bits_at(r);
        packet.time = time;
        if (e->flags & DecodeEntry::kNop) {
          // A run of NOPs (zero nibbles, or one byte without an encoding): in one call if the
          // sink takes runs, else one call each from a loop that only moves the window.
          const unsigned run_length = static_cast<unsigned>(
              std::min<std::size_t>((packet.raw & 0xF) ? 1u : zero_nibbles(packet.raw), count - r));
          if constexpr (AcceptsNopRuns<Sink>) {
            sink.on_nops(static_cast<const Packet &>(packet), run_length);
          } else {
            for (unsigned k = 0;;) {
              sink(static_cast<const Packet &>(packet));
              if (++k == run_length) break;
              packet.raw = bits_at(r + k);
              packet.raw_high = high_bits_at(r + k);
              packet.index = index + k;
              packet.nibble = base + r + k;
            }
          }
          index += run_length;
          r += run_length;
          continue;
        }
        if (e->flags & DecodeEntry::kMarker) {
          if (packet.is_marker()) step = 0;  // the field holds a realtime sample, not a delta
        } else if (e->flags & DecodeEntry::kInst) {
          summary_.notes.unknown_ops += !inst_ops->names_op_of(packet.raw);
        } else {
          // Copies, so neither `packet` nor `time` escapes the loop: the compiler keeps them in
          // registers and drops the stores of fields the (inlined) sink does not read.
          Packet rare = packet;
          std::int64_t rare_time = time;
          e = special(rare, rare_time);
          time = rare_time;
          packet.type = rare.type;
          packet.time = time;
          sink(static_cast<const Packet &>(packet));
          ++index;
          r += e->size;
          if (by_byte_ != by_byte)
            break;  // the caller goes on in a new block, with the new family's tables
          continue;
        }
      }
      time += static_cast<std::int64_t>(step);
      packet.raw_high = high_bits_at(r);
      packet.time = time;
      sink(static_cast<const Packet &>(packet));
      ++index;
      // The step to the next packet, written as a branch on "the same size as the previous
      // packet" (runs of one type are common: CDNA_MISC, NOPs, REG). The CPU predicts the branch
      // and starts on the next packet without waiting for this one's size, which would
      // otherwise bound the loop: a load and an add per packet with the pre-pass, the window
      // load and the table lookup without it.
      const std::size_t size = kScanned ? scan->sizes[r] : e->size;
      if (size == last_size) [[likely]] {
        r += last_size;
      } else {
        last_size = size;
        r += size;
      }
    }
    index_ = index;
    time_ = time;
    return r;
  }

  // The last packets of the blob, one by one with the end-of-blob rules (spec §2 rule 6).
  template <class Sink>
  void run_end(const std::uint8_t *data, std::uint64_t first_byte, std::uint64_t end_nibble,
               Sink &sink) {
    while (true) {
      const std::uint64_t s = nibble_;
      bool in_tail = false;
      if (s + 16 > end_nibble) {
        // tinygrad stops here: fewer than 16 nibbles left.
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
      const u128 window = load_window(data, first_byte, s);
      Packet packet;
      packet.raw = static_cast<std::uint64_t>(window);
      packet.raw_high = static_cast<std::uint8_t>(window >> 64);
      const DecodeEntry *e = &by_byte_[packet.raw & 0xFF];
      packet.type = e->type;
      packet.index = index_;
      packet.nibble = s;
      packet.in_tail = in_tail;
      std::int64_t time = time_;
      if (e->flags & DecodeEntry::kAnySpecial)
        e = special(packet, time);
      else
        time += static_cast<std::int64_t>(e->time_step(packet.raw));
      if (index_ == 0 && packet.type != PacketType::LayoutHeader)
        summary_.notes.missing_layout_header = true;
      if (s + e->size > end_nibble) {
        if (in_tail) {  // a cut-off packet in the tail: nothing more to decode
          stopped_ = true;
          return;
        }
        summary_.notes.truncated_last_packet = true;
      }
      time_ = time;
      packet.time = time;
      sink(static_cast<const Packet &>(packet));
      ++index_;
      ++(in_tail ? summary_.tail_packets : summary_.packets);
      nibble_ = s + e->size;
    }
  }

  // The 72 (and more) bits from nibble s on.
  static u128 load_window(const std::uint8_t *data, std::uint64_t first_byte, std::uint64_t s) {
    const std::uint8_t *p = data + ((s >> 1) - first_byte);
    std::uint64_t lo, hi;
    std::memcpy(&lo, p, 8);
    std::memcpy(&hi, p + 8, 8);
    return ((u128{hi} << 64) | lo) >> (4 * (s & 1));
  }
  static unsigned zero_nibbles(std::uint64_t raw) {
    return raw ? static_cast<unsigned>(__builtin_ctzll(raw)) / 4 : 16;
  }

  // The rare packets, out of line: layout headers (which may switch the family), the CDNA
  // header override, divergences from tinygrad, op checks, markers and timestamps. Returns the
  // entry of the packet's final type; advances `time`.
  const DecodeEntry *special(Packet &packet, std::int64_t &time);
  void set_family(Family family) {
    family_ = family;
    by_byte_ = decode_entries_by_byte(family);
    inst_ops_ = &named_ops(family);
  }
  void on_layout_header(Packet &packet);

  DecodeOptions options_;
  Family family_;
  const bool scanned_;  // the block pre-pass runs (a SIMD kernel exists, options_.simd)
  const DecodeEntry *by_byte_;
  const NamedOps *inst_ops_;
  std::uint64_t nibble_ = 0;
  std::uint64_t index_ = 0;
  std::int64_t time_ = 0;
  bool have_ts_offset_ = false;
  std::uint64_t ts_offset_ = 0;
  bool ended_ = false;    // the reference sequence has ended
  bool stopped_ = false;  // nothing more will be decoded
  DecodeSummary summary_;
};

// Convenience: decodes a whole blob into `out` (tail packets included with decode_tail).
DecodeSummary decode_packets(std::span<const std::uint8_t> blob, const DecodeOptions &options,
                             std::vector<Packet> &out);

}  // namespace wavescope::trace::sqtt
