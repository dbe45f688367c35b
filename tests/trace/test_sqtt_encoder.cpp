// The encoder: it rebuilds every corpus blob exactly, and it builds the streams the corpus lacks
// to show where this decoder is right and tinygrad's is not (spec §2, §4.2, §8, §18.19-20).

#include <catch2/catch.hpp>

#include "sqtt_support/corpus.hpp"
#include "sqtt_support/decode.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/sqtt/encoder.hpp"

using namespace wavescope::trace::sqtt;
using wavescope::testing::sqtt::blob_bytes;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::decode;

namespace {

// An RDNA3 stream's opening LAYOUT_HEADER, as the gfx1100 hardware writes it.
PacketWriter rdna3_stream() {
  PacketWriter w;
  w.add(PacketType::LayoutHeader, {{"layout", 3}, {"sel_a", 6}});
  return w;
}

}  // namespace

TEST_CASE("encode(decode(blob)) == blob for every corpus blob, from raw bits and from fields") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t blobs = 0;
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto bytes = blob_bytes(b.bytes);
      const auto d = decode(bytes, {std::nullopt, true});
      PacketWriter from_bits, from_fields;
      bool fields_rebuild = true;
      for (const auto &p : d.packets) {
        from_bits.add(p);
        std::vector<std::pair<std::string_view, std::uint64_t>> values;
        for (const auto &f : p.spec().fields)
          if (f.lo < 64 && f.lo + f.width <= 64) values.emplace_back(f.name, p.field(f));
        const auto bits = encode_packet_bits(p.type, values, uncovered_bits(p));
        fields_rebuild = fields_rebuild && bits == p.own_bits();
        from_fields.add_bits(p.type, bits, p.raw_high);
      }
      CHECK(fields_rebuild);
      // The nibbles after the last complete packet (a cut-off packet) as they are.
      for (std::uint64_t n = from_bits.nibbles(); n < 2 * bytes.size(); ++n) {
        const auto nibble = static_cast<std::uint8_t>((bytes[n / 2] >> (4 * (n % 2))) & 0xF);
        from_bits.nibble(nibble);
        from_fields.nibble(nibble);
      }
      CHECK(from_bits.bytes() == bytes);
      CHECK(from_fields.bytes() == bytes);
      ++blobs;
    }
  CHECK(blobs == 150);
}

TEST_CASE("the time rules of §8 hold on an encoder-built RDNA3 stream") {
  auto w = rdna3_stream();
  w.add(PacketType::TsDeltaShort, {{"delta", 3}})                            // +3+4 = 7
      .add(PacketType::TsDeltaOrMark, {{"delta", 1000}})                     // +1000 = 1007
      .add(PacketType::TsDeltaOrMark, {{"delta", 555}, {"rt", 1}})           // marker: +0
      .add(PacketType::TsDeltaOrMark, {{"delta", 7}, {"rt", 1}, {"pl", 1}})  // not a marker: +7
      .add(PacketType::Valuinst, {{"delta", 2}, {"wave", 1}})                // 1016
      .add(PacketType::Nop);
  const auto d = decode(w.nops(16).finish());  // tinygrad decodes packets 16+ nibbles from the end
  REQUIRE(d.packets.size() >= 6);
  CHECK(d.packets[1].time == 7);
  CHECK(d.packets[2].time == 1007);
  CHECK(d.packets[3].time == 1007);
  CHECK(d.packets[3].is_marker());
  CHECK(d.packets[4].time == 1014);
  CHECK(d.packets[5].time == 1016);
  CHECK(d.packets[5].field("wave") == 1);
}

TEST_CASE("CDNA: MISC advances by 4x delta and timestamps re-anchor the clock") {
  PacketWriter w;
  w.add_bits(PacketType::LayoutHeader, cdna_synthetic_header(3));
  w.add(PacketType::CdnaMisc, {{"delta", 255}, {"misc_type", 1}})       // 1020
      .add(PacketType::CdnaTimestamp, {{"timestamp", 2498294742355}})   // anchors
      .add(PacketType::CdnaMisc, {{"delta", 1}})                        // 1024
      .add(PacketType::CdnaMisc, {{"delta", 1}})                        // 1028
      .add(PacketType::CdnaMisc, {{"delta", 255}})                      // 2048
      .add(PacketType::CdnaTimestamp, {{"timestamp", 2498294744122}});  // 2780
  const auto d = decode(w.nops(16).finish());
  REQUIRE(d.packets.size() >= 7);
  CHECK(d.summary.family == Family::Cdna);
  CHECK(d.summary.layout == 0u);
  CHECK(d.packets[0].field("sel_a") == 0);
  CHECK(d.packets[1].time == 1020);
  CHECK(d.packets[2].time == 1020);
  CHECK(d.packets[5].time == 2048);
  CHECK(d.packets[6].time == 2780);
}

TEST_CASE("a byte-aligned TS_DELTA_S8_W3 is consumed as 18 nibbles and flagged") {
  // The header is 16 nibbles, so the 72-bit packet starts on a byte boundary, where tinygrad's
  // 64-bit window loses two nibbles and later a byte.
  auto w = rdna3_stream();
  w.add(PacketType::TsDeltaS8W3, {{"delta", 5}});
  w.add(PacketType::Wavestart, {{"delta", 1}, {"wave", 2}, {"id7", 77}});
  w.add(PacketType::Inst, {{"delta", 3}, {"wave", 2}, {"op", 0x01}});
  w.add(PacketType::Waveend, {{"delta", 2}, {"wave", 2}});
  const auto d = decode(w.finish());
  REQUIRE(d.packets.size() >= 5);
  CHECK(d.packets[1].type == PacketType::TsDeltaS8W3);
  CHECK(d.packets[1].nibble == 16);
  CHECK(d.packets[1].time == 5);
  CHECK(d.packets[2].type == PacketType::Wavestart);
  CHECK(d.packets[2].nibble == 34);
  CHECK(d.packets[2].field("id7") == 77);
  CHECK(d.packets[3].type == PacketType::Inst);
  CHECK(d.packets[3].time == 9);
  CHECK(d.packets[4].type == PacketType::Waveend);
  CHECK(d.packets[4].time == 11);
  CHECK(d.summary.notes.byte_aligned_ts_delta_s8_w3 == 1);
  CHECK(d.summary.notes.diverges_from_tinygrad());

  // On an odd nibble tinygrad gets it right too: nothing to flag.
  auto odd = rdna3_stream();
  odd.add(PacketType::Nop).add(PacketType::TsDeltaS8W3, {{"delta", 5}});
  odd.add(PacketType::Valuinst, {{"wave", 1}});
  const auto o = decode(odd.finish());
  REQUIRE(o.packets.size() >= 4);
  CHECK(o.packets[3].type == PacketType::Valuinst);
  CHECK(o.summary.notes.byte_aligned_ts_delta_s8_w3 == 0);
}

TEST_CASE("CDNA 0x11/0x91 bytes after the header are timestamps, not layout headers") {
  PacketWriter w;
  w.add_bits(PacketType::LayoutHeader, cdna_synthetic_header(0));
  w.add(PacketType::CdnaMisc, {{"delta", 2}});
  // _reserved bit 4 set: the low byte is 0x11, which tinygrad's table reads as LAYOUT_HEADER.
  w.add(PacketType::CdnaTimestamp, {{"timestamp", 0x123456}, {"_reserved", 1}});
  w.add(PacketType::CdnaTimestamp, {{"timestamp", 0x42}, {"_reserved", 9}});  // 0x91
  w.add(PacketType::CdnaWavestart, {{"cu", 1}, {"wave", 3}});
  const auto d = decode(w.nops(16).finish());
  REQUIRE(d.packets.size() >= 5);
  CHECK(d.packets[2].type == PacketType::CdnaTimestamp);
  CHECK(d.packets[2].field("timestamp") == 0x123456);
  CHECK(d.packets[3].type == PacketType::CdnaTimestamp);
  CHECK(d.packets[4].type == PacketType::CdnaWavestart);
  CHECK(d.packets[4].field("wave") == 3);
  CHECK(d.packets[4].time == 8);  // non-absolute timestamps ([15:4] != 0) leave the time alone
  CHECK(d.summary.notes.cdna_header_like_timestamps == 2);
  std::size_t headers = 0;
  for (const auto &p : d.packets) headers += p.type == PacketType::LayoutHeader;
  CHECK(headers == 1);
}

TEST_CASE("the tail tinygrad leaves undecoded is decoded on request, apart from the reference") {
  // 24 nibbles: tinygrad decodes only packets that start 16 or more nibbles before the end, so
  // only the header; the VALUINST and two TS_DELTA_SHORT (0xF8, as real blobs end) stay undecoded.
  auto w = rdna3_stream();
  w.add(PacketType::Valuinst, {{"delta", 1}, {"wave", 0}});
  w.add(PacketType::TsDeltaShort, {{"delta", 15}}).add(PacketType::TsDeltaShort, {{"delta", 15}});
  const auto bytes = w.finish(1);
  REQUIRE(bytes.size() == 12);

  const auto reference = decode(bytes);
  CHECK(reference.summary.packets == 1);
  CHECK(reference.summary.undecoded_tail_nibbles() == 8);
  CHECK(reference.summary.last_time == 0);

  const auto tail = decode(bytes, {std::nullopt, true});
  REQUIRE(tail.packets.size() == 5);  // + VALUINST, 2 x TS_DELTA_SHORT, the padding NOP
  CHECK(tail.summary.packets == 1);
  CHECK(tail.summary.tail_packets == 4);
  CHECK(tail.summary.undecoded_tail_nibbles() == 8);  // relative to the reference sequence
  CHECK_FALSE(tail.packets[0].in_tail);
  CHECK(tail.packets[1].in_tail);
  CHECK(tail.packets[1].type == PacketType::Valuinst);
  CHECK(tail.packets[2].type == PacketType::TsDeltaShort);
  CHECK(tail.packets[3].time == 1 + 19 + 19);

  // A packet the end cuts off is not decoded, even with the tail on.
  PacketWriter cut = rdna3_stream();
  cut.nops(14).nibble(0x9).nibble(0x1);  // 32 nibbles, the last two the start of a 16-nibble REG
  const auto c = decode(cut.bytes(), {std::nullopt, true});
  CHECK(c.summary.packets == 2);        // header and the NOP at nibble 16
  CHECK(c.summary.tail_packets == 13);  // the NOPs at nibbles 17..29
  CHECK(c.packets.back().nibble == 29);
}

TEST_CASE("a stream without a layout header is reported and decoded as RDNA3") {
  PacketWriter w;
  w.add(PacketType::TsDeltaShort, {{"delta", 1}}).add(PacketType::Valuinst, {{"wave", 3}});
  w.nops(20);
  const auto d = decode(w.finish());
  CHECK(d.summary.notes.missing_layout_header);
  CHECK(d.summary.family == Family::Rdna3);
  CHECK(d.packets[1].type == PacketType::Valuinst);
  CHECK(d.packets[1].time == 5);
}

TEST_CASE("an explicit family overrides the header and the disagreement is noted") {
  PacketWriter w;
  w.add(PacketType::LayoutHeader, {{"layout", 4}});
  w.add(PacketType::Wavestart, {{"wave", 5}});  // RDNA3 layout: wave in [17:13]
  w.nops(16);
  const auto forced = decode(w.finish(), {Family::Rdna3, false});
  CHECK(forced.summary.notes.layout_mismatch);
  CHECK(forced.summary.family == Family::Rdna3);
  CHECK(forced.packets[1].type == PacketType::Wavestart);
  CHECK(forced.packets[1].field("wave") == 5);
  const auto automatic = decode(w.finish());
  CHECK(automatic.summary.family == Family::Rdna4);
  CHECK(automatic.packets[1].type == PacketType::WavestartRdna4);
}

TEST_CASE("the encoder refuses unknown fields and values wider than their field") {
  using wavescope::Error;
  CHECK_THROWS_AS(encode_packet_bits(PacketType::Inst, {{"no_such", 1}}), Error);
  CHECK_THROWS_AS(encode_packet_bits(PacketType::Inst, {{"wave", 32}}), Error);
  CHECK(encode_packet_bits(PacketType::Inst, {{"wave", 31}}) == (0b010 | (31u << 8)));
}

TEST_CASE("every type decodes back from its own encoding in its family") {
  for (const auto &spec : all_packet_specs()) {
    INFO(spec.name);
    const Family family = family_of(spec.type);
    PacketWriter w;
    if (family == Family::Cdna)
      w.add_bits(PacketType::LayoutHeader, cdna_synthetic_header(0));
    else
      w.add(PacketType::LayoutHeader, {{"layout", family == Family::Rdna4 ? 4u : 3u}});
    w.add(spec.type);
    w.nops(18);
    const auto d = decode(w.finish(), {family, false});
    REQUIRE(d.packets.size() >= 2);
    // RDNA types common to both layouts decode under RDNA3's names on layout 3.
    CHECK(d.packets[1].type == spec.type);
    CHECK(d.packets[1].nibble == 16);
  }
}
