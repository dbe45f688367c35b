// The decoder's fast path (block_scan.hpp, PacketDecoder::walk_block): the block pre-pass of
// per-nibble sizes in every kernel, packets across block boundaries and on odd nibbles, the
// predicted step between packets, family switches inside a block, and NOP runs, each with and
// without the SIMD pre-pass (DecodeOptions::simd). Each is checked against an independent
// oracle: the table definition, the encoder's own record of what it wrote, or the blob's bytes.

#include <catch2/catch.hpp>

#include <random>

#include "sqtt_support/corpus.hpp"
#include "sqtt_support/decode.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/sqtt/block_scan.hpp"
#include "wavescope/trace/sqtt/encoder.hpp"

using namespace wavescope::trace::sqtt;
using wavescope::testing::sqtt::blob_bytes;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::decode;

namespace {

constexpr Family kFamilies[] = {Family::Rdna3, Family::Rdna4, Family::Cdna};

std::uint8_t nibble_at(std::span<const std::uint8_t> bytes, std::uint64_t n) {
  return n / 2 < bytes.size() ? (bytes[n / 2] >> (4 * (n % 2))) & 0xF : 0;
}

// Corpus blobs plus random byte strings (some with long zero runs, i.e. NOP runs).
std::vector<std::vector<std::uint8_t>> inputs() {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) out.push_back(blob_bytes(b.bytes));
  std::mt19937_64 rng(314159);
  for (int i = 0; i < 60; ++i) {
    std::vector<std::uint8_t> bytes(rng() % 3000);
    for (auto &x : bytes) x = (i % 2 && rng() % 4 != 0) ? 0 : static_cast<std::uint8_t>(rng());
    out.push_back(std::move(bytes));
  }
  return out;
}

// One packet as the encoder wrote it.
struct Written {
  PacketType type;
  std::uint64_t nibble;
  std::uint64_t bits;
  std::uint8_t high = 0;  // bits 64..71
};

// The packet types a family's byte table can produce, except LAYOUT_HEADER.
std::vector<PacketType> stream_types(Family family) {
  std::vector<PacketType> types;
  for (unsigned b = 0; b < 256; ++b) {
    const PacketType t = packet_type_for_byte(family, static_cast<std::uint8_t>(b));
    if (t != PacketType::LayoutHeader && std::find(types.begin(), types.end(), t) == types.end())
      types.push_back(t);
  }
  return types;
}

// Appends `count` random packets of `family` (random field values, NOP runs between them where
// the family has NOPs: CDNA has none) to `w`, recording each in `out`.
void add_random_packets(PacketWriter &w, std::vector<Written> &out, Family family,
                        std::size_t count, std::mt19937_64 &rng) {
  const auto types = stream_types(family);
  const bool has_nops = std::find(types.begin(), types.end(), PacketType::Nop) != types.end();
  while (count > 0) {
    if (has_nops && rng() % 8 == 0) {  // a NOP run of 1..40
      const std::size_t run = std::min<std::size_t>(count, 1 + rng() % 40);
      for (std::size_t k = 0; k < run; ++k) out.push_back({PacketType::Nop, w.nibbles() + k, 0});
      w.nops(run);
      count -= run;
      continue;
    }
    // Runs of one type (as real streams have), then a different one.
    const PacketType type = types[rng() % types.size()];
    for (std::size_t k = 1 + rng() % 6; k > 0 && count > 0; --k) {
      std::vector<std::pair<std::string_view, std::uint64_t>> values;
      for (const auto &f : packet_spec(type).fields)
        if (f.lo + f.width <= 64) values.emplace_back(f.name, rng() & f.mask());
      std::uint64_t bits = encode_packet_bits(type, values);
      if (packet_type_for_byte(family, bits & 0xFF) != type)  // field bits made another type
        bits = encode_packet_bits(type, {});
      const auto high = static_cast<std::uint8_t>(
          packet_spec(type).size_nibbles > 16
              ? rng() & ((1u << (4 * (packet_spec(type).size_nibbles - 16))) - 1)
              : 0);
      out.push_back({type, w.nibbles(), bits, high});
      w.add_bits(type, bits, high);
      --count;
    }
  }
}

// True if `packets` begins with exactly the packets of `written`.
bool starts_with_written(const std::vector<Packet> &packets, const std::vector<Written> &written) {
  if (packets.size() < written.size()) {
    FAIL_CHECK("decoded " << packets.size() << " packets, wrote " << written.size());
    return false;
  }
  for (std::size_t i = 0; i < written.size(); ++i) {
    const Packet &p = packets[i];
    const Written &w = written[i];
    const bool high_ok = p.size_nibbles() <= 16 || p.raw_high == w.high;
    if (p.type != w.type || p.nibble != w.nibble || p.index != i || p.own_bits() != w.bits ||
        !high_ok) {
      FAIL_CHECK("packet " << i << ": decoded " << to_string(p.type) << " at nibble " << p.nibble
                           << ", wrote " << to_string(w.type) << " at nibble " << w.nibble);
      return false;
    }
  }
  return true;
}

// Expands NOP runs into single packets (index, nibble, time, type; raw only for the first).
struct RunExpander {
  std::vector<Packet> packets;
  void operator()(const Packet &p) { packets.push_back(p); }
  void on_nops(const Packet &first, unsigned count) {
    for (unsigned k = 0; k < count; ++k) {
      Packet p = first;
      p.index += k;
      p.nibble += k;
      packets.push_back(p);
    }
  }
};

}  // namespace

TEST_CASE("block scan: every kernel gives each nibble's packet size and the shifted bytes") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::vector<ScanKernel> kernels = {ScanKernel::Portable};
  if (scan_kernel_available(ScanKernel::Avx2))
    kernels.push_back(ScanKernel::Avx2);
  else
    WARN("this CPU has no AVX2: only the portable scan kernel is tested");
  std::mt19937_64 rng(2718);
  std::size_t scans = 0;
  for (const auto &bytes : inputs()) {
    for (int trial = 0; trial < 4 && bytes.size() >= 16; ++trial) {
      // A block of `count` nibbles from a random byte, holding exactly the bytes the scan may
      // read, so a sanitizer build catches any read past them.
      const unsigned max_count =
          static_cast<unsigned>(std::min<std::size_t>(BlockScan::kNibbles, 2 * bytes.size() - 30));
      const unsigned count = trial == 0 ? max_count : 1 + static_cast<unsigned>(rng() % max_count);
      const std::size_t readable = (count - 1) / 2 + 16;
      const std::size_t offset = rng() % (bytes.size() - readable + 1);
      const std::vector<std::uint8_t> block(bytes.begin() + std::ptrdiff_t(offset),
                                            bytes.begin() + std::ptrdiff_t(offset + readable));
      for (const Family family : kFamilies)
        for (const ScanKernel kernel : kernels) {
          BlockScan scan;
          scan_block(kernel, family, block.data(), count, scan);
          bool sizes_ok = true, shifted_ok = true;
          for (unsigned i = 0; i < count; ++i) {
            const auto low_byte =
                static_cast<std::uint8_t>(nibble_at(block, i) | nibble_at(block, i + 1) << 4);
            sizes_ok =
                sizes_ok &&
                scan.sizes[i] == packet_spec(packet_type_for_byte(family, low_byte)).size_nibbles;
          }
          for (unsigned k = 0; k < (count - 1) / 2 + 9; ++k)
            shifted_ok = shifted_ok && scan.shifted[k] == (nibble_at(block, 2 * k + 1) |
                                                           nibble_at(block, 2 * k + 2) << 4);
          INFO("family " << to_string(family) << ", kernel " << int(kernel) << ", count " << count);
          CHECK(sizes_ok);
          CHECK(shifted_ok);
          ++scans;
        }
    }
  }
  CHECK(scans > 1000);
}

TEST_CASE("every packet's raw and raw_high are the 72 stream bits from its first nibble") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t packets = 0;
  for (const auto &bytes : inputs())
    for (int family = -1; family < 3; ++family) {
      DecodeOptions options;
      options.simd = family % 2 == 0;  // both paths, each over every input
      if (family >= 0) options.family = static_cast<Family>(family);
      options.decode_tail = true;
      bool ok = true;
      for (const auto &p : decode(bytes, options).packets) {
        std::uint64_t raw = 0;
        for (unsigned k = 0; k < 16; ++k)
          raw |= std::uint64_t{nibble_at(bytes, p.nibble + k)} << (4 * k);
        const auto high = static_cast<std::uint8_t>(nibble_at(bytes, p.nibble + 16) |
                                                    nibble_at(bytes, p.nibble + 17) << 4);
        ok = ok && p.raw == raw && p.raw_high == high;
        ++packets;
      }
      CHECK(ok);
    }
  CHECK(packets > 100000);
}

TEST_CASE("random encoder-built streams of every family decode to exactly what was written") {
  std::mt19937_64 rng(1618);
  for (const Family family : kFamilies)
    for (int stream = 0; stream < 8; ++stream) {
      INFO("family " << to_string(family) << ", stream " << stream);
      PacketWriter w;
      std::vector<Written> written;
      // From 30 packets (inside one block) to several thousand (many blocks); a NOP first on
      // every other RDNA stream puts packets on the other nibble parity (CDNA packets are all
      // whole bytes).
      const bool odd_start = stream % 2 && family != Family::Cdna;
      if (odd_start) {
        written.push_back({PacketType::Nop, 0, 0});
        w.nibble(0);
      }
      add_random_packets(w, written, family, stream < 2 ? 30 : 600 * std::size_t(stream), rng);
      const auto bytes = w.nops(18).finish();
      for (bool simd : {true, false}) {
        INFO("simd " << simd);
        DecodeOptions options;
        options.family = family;
        options.simd = simd;
        CHECK(starts_with_written(decode(bytes, options).packets, written));
      }
    }
}

TEST_CASE("a layout header inside a block switches the family for the rest of the block") {
  std::mt19937_64 rng(4669);
  const std::uint64_t layout3 = encode_packet_bits(PacketType::LayoutHeader, {{"layout", 3}});
  const std::uint64_t layout4 = encode_packet_bits(PacketType::LayoutHeader, {{"layout", 4}});
  for (std::size_t before : {std::size_t{5}, std::size_t{90}, std::size_t{700}}) {
    INFO(before << " RDNA3 packets before the switch");
    PacketWriter w;
    std::vector<Written> written;
    written.push_back({PacketType::LayoutHeader, w.nibbles(), layout3});
    w.add_bits(PacketType::LayoutHeader, layout3);
    add_random_packets(w, written, Family::Rdna3, before, rng);
    written.push_back({PacketType::LayoutHeader, w.nibbles(), layout4});
    w.add_bits(PacketType::LayoutHeader, layout4);
    add_random_packets(w, written, Family::Rdna4, 2000, rng);
    const auto bytes = w.nops(18).finish();
    for (bool simd : {true, false}) {
      INFO("simd " << simd);
      DecodeOptions options;
      options.simd = simd;
      const auto d = decode(bytes, options);
      CHECK(starts_with_written(d.packets, written));
      CHECK(d.summary.notes.mid_stream_layout_headers == 1);
      CHECK(d.summary.family == Family::Rdna4);
    }
  }
}

TEST_CASE("a sink taking NOP runs sees the same packets as one taking every packet") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t runs = 0;
  for (const auto &bytes : inputs())
    for (bool tail : {false, true}) {
      DecodeOptions options;
      options.decode_tail = tail;
      options.simd = tail;  // both paths
      const auto single = decode(bytes, options);
      RunExpander expander;
      PacketDecoder decoder(options);
      const auto &summary = decoder.decode(bytes, expander);
      REQUIRE(expander.packets.size() == single.packets.size());
      bool same = true;
      for (std::size_t i = 0; i < single.packets.size(); ++i) {
        const Packet &a = single.packets[i], &b = expander.packets[i];
        same = same && a.index == b.index && a.nibble == b.nibble && a.time == b.time &&
               a.type == b.type && a.in_tail == b.in_tail;
        runs += b.type == PacketType::Nop && (i == 0 || expander.packets[i - 1].type != b.type);
      }
      CHECK(same);
      CHECK(summary.packets == single.summary.packets);
      CHECK(summary.last_time == single.summary.last_time);
    }
  CHECK(runs > 1000);
}

TEST_CASE("decoding without the SIMD pre-pass gives the same packets, times and summary") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t packets = 0;
  for (const auto &bytes : inputs())
    for (int family = -1; family < 3; ++family) {
      DecodeOptions options;
      if (family >= 0) options.family = static_cast<Family>(family);
      options.decode_tail = true;
      const auto with = decode(bytes, options);
      options.simd = false;
      const auto without = decode(bytes, options);
      REQUIRE(with.packets.size() == without.packets.size());
      bool same = true;
      for (std::size_t i = 0; i < with.packets.size(); ++i) {
        const Packet &a = with.packets[i], &b = without.packets[i];
        same = same && a.index == b.index && a.nibble == b.nibble && a.time == b.time &&
               a.raw == b.raw && a.raw_high == b.raw_high && a.type == b.type &&
               a.in_tail == b.in_tail;
      }
      CHECK(same);
      const auto &x = with.summary, &y = without.summary;
      CHECK(x.family == y.family);
      CHECK(x.packets == y.packets);
      CHECK(x.tail_packets == y.tail_packets);
      CHECK(x.decoded_nibbles == y.decoded_nibbles);
      CHECK(x.last_time == y.last_time);
      CHECK(x.notes.unknown_ops == y.notes.unknown_ops);
      CHECK(x.notes.mid_stream_layout_headers == y.notes.mid_stream_layout_headers);
      CHECK(x.notes.cdna_header_like_timestamps == y.notes.cdna_header_like_timestamps);
      CHECK(x.notes.byte_aligned_ts_delta_s8_w3 == y.notes.byte_aligned_ts_delta_s8_w3);
      packets += with.packets.size();
    }
  CHECK(packets > 100000);
}
