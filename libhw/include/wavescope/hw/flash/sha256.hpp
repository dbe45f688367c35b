#pragma once
// SHA-256 (OpenSSL) as lower-case hex, the form the tools print and the journal records.

#include <cstdint>
#include <span>
#include <string>

namespace wavescope::hw::flash {

std::string sha256_hex(std::span<const std::uint8_t> bytes);

}  // namespace wavescope::hw::flash
