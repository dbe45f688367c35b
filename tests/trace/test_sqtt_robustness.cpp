// Arbitrary and damaged input: the decoder and the timeline layer never crash or hang, always
// tile the stream and always end (deterministic random inputs; the fuzz target explores further).

#include <catch2/catch.hpp>

#include <random>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"
#include "sqtt_support/decode.hpp"
#include "wavescope/trace/sqtt/encoder.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"

using namespace wavescope::trace;
using wavescope::testing::sqtt::decode;

namespace {

// Decodes with every option combination and replays into the timeline layer; false if the
// packets do not tile the stream or the decode claims more than the input.
bool survives(std::span<const std::uint8_t> bytes, const timeline::ProgramMap *program = nullptr) {
  for (int family = -1; family < 3; ++family)
    for (bool tail : {false, true}) {
      sqtt::DecodeOptions options;
      if (family >= 0) options.family = static_cast<sqtt::Family>(family);
      options.decode_tail = tail;
      timeline::TimelineBuilder builder(0, "random");
      timeline::WaveTraceCollector waves;
      std::optional<timeline::PcStatsAccumulator> stats;
      std::vector<timeline::AnalysisObserver *> observers{&builder, &waves};
      if (program) observers.push_back(&stats.emplace(*program));
      timeline::ObserverFanout fanout(observers);
      timeline::BlobAnalyzer analyzer(program, 0, fanout);
      std::uint64_t next = 0;
      bool tiled = true;
      sqtt::PacketDecoder decoder(options);
      const auto &summary = decoder.decode(bytes, [&](const sqtt::Packet &p) {
        tiled = tiled && p.nibble == next;
        next = p.nibble + p.size_nibbles();
        analyzer.on_packet(p);
      });
      analyzer.finish();
      const auto model = builder.finish();
      waves.take();
      if (!tiled || summary.decoded_nibbles > 2 * bytes.size()) return false;
      if (!tail && summary.tail_packets) return false;
      for (const auto &row : model.rows) {
        const auto [first, last] = row.overlapping(model.begin, model.end + 1);
        if (first > last || last > row.events.size()) return false;
      }
    }
  return true;
}

}  // namespace

TEST_CASE("empty and tiny blobs end cleanly with no packets") {
  for (std::size_t n = 0; n < 8; ++n) {
    const std::vector<std::uint8_t> bytes(n, 0x11);
    const auto d = decode(bytes);
    CHECK(d.packets.empty());  // fewer than 16 nibbles: nothing tinygrad would decode
    CHECK(d.summary.decoded_nibbles == 0);
    CHECK(d.summary.undecoded_tail_nibbles() == 2 * n);
    CHECK(survives(bytes));
  }
}

TEST_CASE("random bytes never crash, hang or break tiling (10 000 deterministic inputs)") {
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 10000; ++i) {
    std::vector<std::uint8_t> bytes(rng() % 600);
    // Mostly uniform bytes; some inputs biased toward the RDNA wave/instruction encodings.
    const bool biased = i % 3 == 0;
    static constexpr std::uint8_t kInteresting[] = {0x11, 0x91, 0x21, 0x01, 0x0C, 0x15, 0x02,
                                                    0x03, 0x0D, 0x04, 0x14, 0x0E, 0x0F, 0x00};
    for (auto &b : bytes)
      b = biased && rng() % 2 ? kInteresting[rng() % std::size(kInteresting)]
                              : static_cast<std::uint8_t>(rng());
    if (!survives(bytes)) FAIL("input " << i << " of " << bytes.size() << " bytes");
  }
}

TEST_CASE("corrupted corpus blobs, with their programs, never crash the timeline layer") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::mt19937_64 rng(7);
  for (const auto &c : wavescope::testing::sqtt::corpus_captures()) {
    timeline::CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      if (!b.itrace) continue;
      INFO(b.file_name);
      const auto clean = wavescope::testing::sqtt::blob_bytes(b.bytes);
      const auto &program = analyzer.program(b.kernel_tag);
      for (int round = 0; round < 8; ++round) {
        auto bytes = clean;
        for (int flips = 0; flips < 1 + round * 4; ++flips)
          bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        CHECK(survives(bytes, &program));
      }
    }
  }
}

TEST_CASE("an exec packet with nothing pending and instructions without a wave are tolerated") {
  sqtt::PacketWriter w;
  w.add(sqtt::PacketType::LayoutHeader, {{"layout", 3}});
  w.add(sqtt::PacketType::Aluexec, {{"src", 2}});                  // VALU exec, nothing pending
  w.add(sqtt::PacketType::Valuinst, {{"delta", 1}, {"wave", 4}});  // no wave in slot 4
  w.add(sqtt::PacketType::Waveend, {{"wave", 4}});                 // end without start
  w.nops(16);
  timeline::TimelineBuilder builder(0, "synthetic");
  timeline::BlobAnalyzer analyzer(nullptr, 0, builder);
  sqtt::PacketDecoder decoder;
  decoder.decode(w.finish(), [&](const sqtt::Packet &p) { analyzer.on_packet(p); });
  analyzer.finish();
  CHECK(analyzer.anomalies().exec_without_dispatch == 1);
  CHECK(analyzer.anomalies().instructions_without_wave == 1);
  CHECK(analyzer.anomalies().wave_end_without_start == 1);
  const auto model = builder.finish();
  const auto *valu = model.row("ALUEXEC:0 VALU");
  REQUIRE(valu != nullptr);
  CHECK(valu->events[0].link_row == -1);  // unlinked
  const int wave_row = model.wave_row(4);
  REQUIRE(wave_row >= 0);
  CHECK(model.rows[std::size_t(wave_row)].events.size() == 2);  // VALUINST and WAVEEND
}

TEST_CASE("the clock between two realtime markers is exact, however far apart they are") {
  // floor(cycles * 1e9 / (realtime * 10)), in 64 bits where the products fit, else in 128: a
  // time delta of 2^35 cycles between the markers takes the second way, 1000 cycles the first.
  struct Clocks final : timeline::AnalysisObserver {
    std::vector<timeline::ClockPoint> points;
    std::vector<timeline::RealtimePair> markers;
    void on_clock(const timeline::ClockPoint &c) override { points.push_back(c); }
    void on_realtime(const timeline::RealtimePair &r) override { markers.push_back(r); }
  };
  for (const std::uint64_t cycles : {std::uint64_t{1000}, std::uint64_t{1} << 35}) {
    for (const std::uint64_t second_realtime : {std::uint64_t{130}, std::uint64_t{7}}) {
      INFO(cycles << " cycles, realtime 100 -> " << second_realtime);
      sqtt::PacketWriter w;
      w.add(sqtt::PacketType::LayoutHeader, {{"layout", 3}});
      w.add(sqtt::PacketType::TsDeltaOrMark, {{"rt", 1}, {"delta", 100}});
      w.add(sqtt::PacketType::TsDeltaOrMark, {{"delta", cycles}});
      w.add(sqtt::PacketType::TsDeltaOrMark, {{"rt", 1}, {"delta", second_realtime}});
      w.nops(16);
      Clocks clocks;
      timeline::BlobAnalyzer analyzer(nullptr, 0, clocks);
      analyzer.decode(w.finish());
      analyzer.finish();
      REQUIRE(clocks.markers.size() == 2);
      REQUIRE(clocks.points.size() == 1);
      const std::int64_t dt = clocks.markers[1].shader_clock - clocks.markers[0].shader_clock;
      CHECK(dt >= static_cast<std::int64_t>(cycles));
      // The same figure in 128-bit arithmetic, rounded toward minus infinity.
      __extension__ typedef __int128 i128;
      const i128 a = static_cast<i128>(dt) * 1'000'000'000;
      const i128 b = (static_cast<i128>(second_realtime) - 100) * 10;
      i128 q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      CHECK(clocks.points[0].freq_hz == static_cast<std::int64_t>(q));
      CHECK(clocks.points[0].time == clocks.markers[1].shader_clock);
    }
  }
}
