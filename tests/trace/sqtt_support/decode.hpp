#pragma once
// Small decode helpers shared by the SQTT tests.

#include <span>
#include <vector>

#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::testing::sqtt {

struct Decoded {
  std::vector<trace::sqtt::Packet> packets;
  trace::sqtt::DecodeSummary summary;
};

inline Decoded decode(std::span<const std::uint8_t> bytes,
                      const trace::sqtt::DecodeOptions &options = {}) {
  Decoded d;
  d.summary = trace::sqtt::decode_packets(bytes, options, d.packets);
  return d;
}

}  // namespace wavescope::testing::sqtt
