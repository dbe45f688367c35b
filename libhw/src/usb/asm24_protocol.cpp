#include "wavescope/hw/usb/asm24_protocol.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::asm24 {

std::string describe(CompletionStatus status) {
  switch (status) {
  case CompletionStatus::Success: return "successful completion";
  case CompletionStatus::UnsupportedRequest: return "Unsupported Request (nothing answers there)";
  case CompletionStatus::ConfigRetry:
    return "Configuration Request Retry Status (device not ready)";
  case CompletionStatus::CompleterAbort: return "Completer Abort";
  }
  return fmt::format("reserved completion status {:#05b}", static_cast<unsigned>(status));
}

std::uint8_t byte_enables(std::uint32_t offset, unsigned size) {
  const unsigned lane = offset & 3;
  if (size < 1 || size > 4 || lane + size > 4)
    throw Error(ErrorKind::Internal,
                fmt::format("a {}-byte TLP at offset {:#x} would cross a dword", size, offset));
  return static_cast<std::uint8_t>(((1u << size) - 1) << lane);
}

std::uint32_t config_address(unsigned bus, unsigned device, unsigned function, std::uint32_t reg) {
  if (bus > 255 || device > 31 || function > 7 || reg >= 0x1000)
    throw Error(ErrorKind::Internal, fmt::format("bad config address {:02x}:{:02x}.{} +{:#x}", bus,
                                                 device, function, reg));
  return bus << 24 | device << 19 | function << 16 | reg;
}

std::array<std::uint8_t, 12> pcie_request_payload(std::uint64_t address, std::uint32_t value) {
  std::array<std::uint8_t, 12> out{};
  const std::uint32_t words[3] = {static_cast<std::uint32_t>(address),
                                  static_cast<std::uint32_t>(address >> 32), value};
  for (int w = 0; w < 3; ++w)
    for (int b = 0; b < 4; ++b) out[4 * w + b] = static_cast<std::uint8_t>(words[w] >> (8 * b));
  return out;
}

TlpCompletion parse_completion(std::span<const std::uint8_t> reply) {
  if (reply.size() != 8)
    throw Error(ErrorKind::Device,
                fmt::format("0xF0 completion reply has {} bytes, expected 8", reply.size()));
  TlpCompletion c;
  c.data = reply[0] | reply[1] << 8 | reply[2] << 16 | std::uint32_t(reply[3]) << 24;
  c.raw_status = reply[4] >> 5;
  c.status = static_cast<CompletionStatus>(c.raw_status);
  c.return_status = reply[7];
  return c;
}

std::array<std::uint8_t, 8> encode_completion(std::uint32_t data, std::uint8_t completion_status,
                                              std::uint8_t return_status) {
  return {static_cast<std::uint8_t>(data),
          static_cast<std::uint8_t>(data >> 8),
          static_cast<std::uint8_t>(data >> 16),
          static_cast<std::uint8_t>(data >> 24),
          static_cast<std::uint8_t>(completion_status << 5),
          0,
          0,
          return_status};
}

}  // namespace wavescope::hw::asm24
