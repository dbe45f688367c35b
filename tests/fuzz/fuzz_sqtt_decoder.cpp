// Fuzz target: arbitrary bytes as an SQTT blob, decoded with every family (and the tail), then
// replayed through the timeline layer without a program. Nothing may crash, hang or throw; the
// packets must tile the input.

#include <cstdint>
#include <cstdlib>
#include <span>

#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope::trace;
  const std::span<const std::uint8_t> blob(data, size);
  // The first byte picks the family (auto, RDNA3, RDNA4, CDNA) and whether the tail is decoded.
  const unsigned mode = size ? data[0] : 0;
  sqtt::DecodeOptions options;
  if (mode % 4) options.family = static_cast<sqtt::Family>(mode % 4 - 1);
  options.decode_tail = (mode / 4) % 2;

  timeline::TimelineBuilder builder(0, "fuzz");
  timeline::BlobAnalyzer analyzer(nullptr, 0, builder);
  std::uint64_t next = 0;
  sqtt::PacketDecoder decoder(options);
  const auto &summary = decoder.decode(blob, [&](const sqtt::Packet &p) {
    if (p.nibble != next) std::abort();  // packets must tile the stream
    next = p.nibble + p.size_nibbles();
    analyzer.on_packet(p);
  });
  analyzer.finish();
  const auto model = builder.finish();
  if (summary.decoded_nibbles > 2 * size) std::abort();
  for (const auto &row : model.rows) (void)row.overlapping(model.begin, model.end);
  return 0;
}
