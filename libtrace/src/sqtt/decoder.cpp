#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::trace::sqtt {

DecodeSummary decode_packets(std::span<const std::uint8_t> blob, const DecodeOptions &options,
                             std::vector<Packet> &out) {
  PacketDecoder decoder(options);
  return decoder.decode(blob, [&](const Packet &p) { out.push_back(p); });
}

} // namespace wavescope::trace::sqtt
