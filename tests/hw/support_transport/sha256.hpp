#pragma once
// SHA-256 as lowercase hex (OpenSSL), for comparing images with the hashes the specs give.

#include <cstdint>
#include <span>
#include <string>

namespace wavescope::testing {

std::string sha256_hex(std::span<const std::uint8_t> bytes);

} // namespace wavescope::testing
