// The decoder against tinygrad's reference decode of every corpus blob, packet for packet
// (spec §18 properties 1-6).

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sqtt_support/corpus.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"

using namespace wavescope::trace::sqtt;
using wavescope::testing::sqtt::blob_bytes;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::jsonl_by_blob;

namespace {

// Compares one decoded packet with its reference line; returns the first difference or "".
std::string compare(const Packet &p, const nlohmann::json &ref) {
  const auto &spec = p.spec();
  if (ref.at("type") != spec.name)
    return fmt::format("type {} != {}", spec.name, ref.at("type").get<std::string>());
  if (ref.at("i") != p.index) return "index";
  if (ref.at("time") != p.time) return fmt::format("time {} != {}", p.time, ref.at("time").dump());
  if (ref.at("nib") != p.nibble) return fmt::format("nib {} != {}", p.nibble, ref.at("nib").dump());
  const auto &fields = ref.at("fields");
  std::size_t public_fields = 0;
  for (const auto &f : spec.fields) {
    if (f.hidden) continue;
    ++public_fields;
    if (!fields.contains(f.name)) return fmt::format("field {} not in reference", f.name);
    if (fields.at(std::string(f.name)) != p.field(f)) return fmt::format("field {}", f.name);
    if (f.enum_names) {
      const auto name = f.enum_names->name(p.field(f));
      if (ref.at("names").at(std::string(f.name)) != name) return fmt::format("name of {}", f.name);
    }
  }
  if (fields.size() != public_fields) return "field count";
  if (ref.contains("derived")) {
    const auto &d = ref.at("derived");
    if (d.contains("is_marker") && d.at("is_marker") != int(p.is_marker())) return "is_marker";
  }
  return {};
}

}  // namespace

TEST_CASE("every corpus blob decodes exactly as tinygrad's reference, packet for packet") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t packets = 0, blobs = 0;
  for (const auto &c : corpus_captures()) {
    const auto reference = jsonl_by_blob(c.dir / "reference.jsonl.gz");
    for (const auto &b : c.capture.blobs) {
      const std::string file = b.file_name;
      INFO(c.dir.string() << " " << file);
      const auto &ref = reference.at(file);
      const auto bytes = blob_bytes(b.bytes);
      std::size_t i = 0;
      std::string first_difference;
      PacketDecoder decoder;
      const auto summary = decoder.decode(bytes, [&](const Packet &p) {
        if (i < ref.size() && first_difference.empty()) {
          const auto d = compare(p, ref[i]);
          if (!d.empty()) first_difference = fmt::format("packet {}: {} ({})", i, d, ref[i].dump());
        }
        ++i;
      });
      CHECK(first_difference == "");
      CHECK(i == ref.size());
      const auto &meta = c.blob_meta(file);
      CHECK(summary.packets == meta.at("packets"));
      CHECK(summary.decoded_nibbles == meta.at("decoded_nibbles"));
      CHECK(summary.undecoded_tail_nibbles() == meta.at("undecoded_tail_nibbles"));
      CHECK(summary.layout == meta.at("layout").get<unsigned>());
      CHECK(summary.last_time == meta.at("last_time"));
      CHECK_FALSE(summary.notes.diverges_from_tinygrad());
      CHECK(summary.notes.unknown_ops == 0);
      packets += i;
      ++blobs;
    }
  }
  CHECK(blobs == 150);
  CHECK(packets == 62197 + 35252 + 51493);
}
