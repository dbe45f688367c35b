// The properties spec §18 requires of a correct decoder, each over every blob of the corpus.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"
#include "sqtt_support/decode.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"

using namespace wavescope::trace::sqtt;
using namespace wavescope::trace::timeline;
using wavescope::testing::sqtt::blob_bytes;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::decode;

TEST_CASE("§18.1 every blob starts with a LAYOUT_HEADER at time 0 naming its family") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const std::map<std::string, unsigned> layout = {{"gfx1100", 3}, {"gfx1200", 4}, {"gfx950", 0}};
  const std::map<std::string, Family> family = {
      {"gfx1100", Family::Rdna3}, {"gfx1200", Family::Rdna4}, {"gfx950", Family::Cdna}};
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto d = decode(blob_bytes(b.bytes));
      REQUIRE(!d.packets.empty());
      CHECK(d.packets[0].type == PacketType::LayoutHeader);
      CHECK(d.packets[0].time == 0);
      CHECK(d.summary.layout == layout.at(c.capture.arch));
      CHECK(d.summary.family == family.at(c.capture.arch));
      CHECK_FALSE(d.summary.notes.missing_layout_header);
    }
}

TEST_CASE("§18.3 packets tile the decoded prefix and the decode stops where tinygrad stops") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto bytes = blob_bytes(b.bytes);
      const auto d = decode(bytes);
      std::uint64_t next = 0;
      bool tiled = true;
      for (const auto &p : d.packets) {
        tiled = tiled && p.nibble == next;
        next = p.nibble + p.size_nibbles();
      }
      CHECK(tiled);
      CHECK(d.summary.decoded_nibbles == next);
      CHECK(d.summary.decoded_nibbles + d.summary.undecoded_tail_nibbles() == 2 * bytes.size());
      CHECK(d.summary.decoded_nibbles + 16 > 2 * bytes.size());
      CHECK(d.summary.undecoded_tail_nibbles() <= 15);
    }
}

TEST_CASE("§18.4 times never decrease within a blob") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto d = decode(blob_bytes(b.bytes));
      CHECK(std::is_sorted(d.packets.begin(), d.packets.end(),
                           [](const Packet &x, const Packet &y) { return x.time < y.time; }));
    }
}

TEST_CASE("§18.5 every op and src value is named, and CDNA blobs hold one LAYOUT_HEADER") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto d = decode(blob_bytes(b.bytes));
      std::size_t headers = 0, unnamed = 0;
      for (const auto &p : d.packets) {
        headers += p.type == PacketType::LayoutHeader;
        for (const auto &f : p.spec().fields)
          if (f.enum_names && f.enum_names->name(p.field(f)).empty()) ++unnamed;
      }
      CHECK(unnamed == 0);
      CHECK(d.summary.notes.unknown_ops == 0);
      if (c.capture.arch == "gfx950") CHECK(headers == 1);
    }
}

TEST_CASE("§18.6 gfx1100 per-blob packet counts equal tinygrad's expected lists") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt/gfx1100");
  const std::map<std::string, std::vector<std::uint64_t>> expected = {
      {"empty", {1880, 1867, 1920, 1971, 1998, 1904}},
      {"gemm", {3275, 3278, 2426, 2475, 2511, 2431}},
      {"plus", {1938, 1932, 1978, 2029, 2056, 1962}}};
  for (const auto &[example, counts] : expected) {
    const auto capture = wavescope::trace::Capture::open(root / example);
    std::vector<std::uint64_t> actual;
    for (const auto &b : capture.blobs)
      actual.push_back(decode(blob_bytes(b.bytes)).summary.packets);
    CHECK(actual == counts);
  }
}

TEST_CASE("§18.7-8 every wave start has one later end at its location, and the wave counts") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::map<std::string, std::size_t> waves;
  for (const auto &c : corpus_captures()) {
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto result = wavescope::testing::sqtt::analyze_blob(analyzer, b);
      CHECK(result.report.anomalies.wave_end_without_start == 0);
      CHECK(result.report.anomalies.waves_without_end == 0);
      CHECK(result.report.anomalies.wave_start_on_busy_slot == 0);
      for (const auto &w : result.waves) CHECK((w.wave.end > w.wave.start && w.wave.start > 0));
      waves[c.capture.arch + "/" + c.capture.example] += result.waves.size();
    }
  }
  for (const auto *arch : {"gfx1100", "gfx1200", "gfx950"}) {
    CHECK(waves[std::string(arch) + "/gemm"] == 1024);
    CHECK(waves[std::string(arch) + "/empty"] == 1);
    CHECK(waves[std::string(arch) + "/plus"] == 1);
  }
}

TEST_CASE("§18.9-11 mapped waves walk .text from the entry to s_endpgm, branches by JUMP") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t jumps = 0, mapped_waves = 0;
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch == "gfx950") continue;
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto &program = *c.capture.program(b.kernel_tag);
      const auto &map = analyzer.program(b.kernel_tag);
      const auto result = wavescope::testing::sqtt::analyze_blob(analyzer, b);
      CHECK(result.report.anomalies.total() == 0);
      for (const auto &w : result.waves) {
        if (!w.mapped) continue;
        ++mapped_waves;
        // An SE without instruction tracing: no instruction packets, so no instructions.
        if (!b.itrace && w.instructions.empty()) continue;
        REQUIRE(!w.instructions.empty());
        CHECK(w.instructions.front().pc == program.entry_pc);
        const auto &last = w.instructions.back();
        CHECK(last.is_wave_end);
        CHECK(last.time == w.wave.end);
        if (b.itrace) {
          REQUIRE(map.at(last.pc) != nullptr);
          CHECK(map.at(last.pc)->mnemonic == "s_endpgm");
        } else {
          CHECK(last.pc == program.entry_pc);
        }
        for (std::size_t i = 0; i < w.instructions.size(); ++i) {
          const auto &inst = w.instructions[i];
          CHECK(inst.pc >= program.text_address);
          CHECK(inst.pc < program.text_address + program.text_size);
          if (inst.is_wave_end) continue;
          REQUIRE(inst.instruction != nullptr);
          // Only the RDNA4 s_barrier_waits wavescope inserts have no packet of their own.
          CHECK(inst.instruction->issues_no_packet == inst.inserted);
          if (inst.instruction->is_branch) {
            CHECK((inst.name == "JUMP" || inst.name == "JUMP_NO"));
            if (inst.name == "JUMP" && i + 1 < w.instructions.size() &&
                !w.instructions[i + 1].is_wave_end) {
              ++jumps;
              CHECK(w.instructions[i + 1].pc ==
                    inst.pc + inst.instruction->size + 4 * inst.instruction->simm16);
            }
          }
        }
      }
    }
  }
  CHECK(mapped_waves > 0);
  CHECK(jumps > 0);
}

TEST_CASE("§18.12 OTHER_ dispatches never carry a PC") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t others = 0;
  for (const auto &c : corpus_captures()) {
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs)
      for (const auto &row : wavescope::testing::sqtt::analyze_blob(analyzer, b).timeline.rows)
        for (const auto &e : row.events)
          if (e.name.starts_with("OTHER_") && row.kind == RowKind::WaveSlot) {
            ++others;
            CHECK_FALSE(e.has_pc);
          }
  }
  CHECK(others > 0);
}

TEST_CASE("§18.15 code objects: entry at .text, and every blob's COMPUTE_PGM_LO names it") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures()) {
    for (const auto &p : c.capture.programs) {
      INFO(p.file_name);
      const auto code = wavescope::compiler::isa::CodeObject::from_bytes(
          p.code.read_all(), {c.capture.device.processor, p.name});
      CHECK(code.text().address == p.text_address);
      CHECK(code.text().size == p.text_size);
      CHECK(p.entry_pc == p.text_address);
      const auto &meta = [&]() -> const nlohmann::json & {
        for (const auto &m : c.meta.at("programs"))
          if (m.at("tag") == p.tag) return m;
        throw std::runtime_error("no program");
      }();
      CHECK(std::stoull(meta.at("entry_address").get<std::string>(), nullptr, 16) ==
            p.base + p.entry_pc);
    }
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto *p = c.capture.program(b.kernel_tag);
      const std::uint64_t expected = ((p->base + p->entry_pc) >> 8) & 0xFFFFFFFF;
      bool found = false;
      for (const auto &pkt : decode(blob_bytes(b.bytes)).packets) {
        if (pkt.type == PacketType::Reg && pkt.field("hi_byte") == 0x82 &&
            pkt.field("subop") == 0x0C && pkt.field("val32") == expected)
          found = true;
        if (pkt.type == PacketType::CdnaRegCsPriv && pkt.field("regaddr") == 0x0C &&
            pkt.field("regdata") == expected)
          found = true;
      }
      CHECK(found);
    }
  }
}

TEST_CASE("§18.18 a blob cut at any byte decodes to a prefix of the full decode") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  auto is_prefix = [](const std::vector<Packet> &cut, const std::vector<Packet> &full,
                      std::size_t cut_nibbles) {
    if (cut.size() > full.size()) return false;
    for (std::size_t i = 0; i < cut.size(); ++i) {
      const auto &a = cut[i];
      const auto &b = full[i];
      if (a.type != b.type || a.nibble != b.nibble || a.time != b.time) return false;
      // Bits past the cut read as zero; compare the bits that were there.
      if (a.nibble + a.size_nibbles() <= cut_nibbles && a.own_bits() != b.own_bits()) return false;
    }
    return true;
  };
  std::size_t cuts = 0;
  std::set<std::string> every_byte_done;
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto bytes = blob_bytes(b.bytes);
      const auto full = decode(bytes).packets;
      // Every cut for the first blob of each architecture, 64 spread cuts for the others.
      const bool every = every_byte_done.insert(c.capture.arch).second;
      const std::size_t step = every ? 1 : std::max<std::size_t>(1, bytes.size() / 64);
      for (std::size_t n = 0; n <= bytes.size(); n += step) {
        const auto cut = decode(std::span(bytes).first(n));
        if (!is_prefix(cut.packets, full, 2 * n)) FAIL_CHECK("cut at byte " << n);
        CHECK(cut.summary.decoded_nibbles <= 2 * n);
        ++cuts;
      }
    }
  CHECK(cuts > 10000);
}

TEST_CASE("decoding a file in small chunks equals decoding it in memory") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures())
    for (const auto &b : c.capture.blobs) {
      INFO(b.file_name);
      const auto whole = decode(blob_bytes(b.bytes), {std::nullopt, true});
      for (std::size_t chunk : {std::size_t{17}, std::size_t{64}, std::size_t{1000}}) {
        std::vector<Packet> chunked;
        const BlobFile file(b.bytes);
        const auto summary = decode_file(
            file, {std::nullopt, true}, [&](const Packet &p) { chunked.push_back(p); }, nullptr,
            chunk);
        REQUIRE(chunked.size() == whole.packets.size());
        bool same = true;
        for (std::size_t i = 0; i < chunked.size(); ++i)
          same = same && chunked[i].raw == whole.packets[i].raw &&
                 chunked[i].time == whole.packets[i].time &&
                 chunked[i].in_tail == whole.packets[i].in_tail;
        CHECK(same);
        CHECK(summary.decoded_nibbles == whole.summary.decoded_nibbles);
        CHECK(summary.tail_packets == whole.summary.tail_packets);
      }
    }
}
