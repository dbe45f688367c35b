#include "support_transport/sha256.hpp"

#include <openssl/evp.h>

#include <fmt/format.h>

namespace wavescope::testing {

std::string sha256_hex(std::span<const std::uint8_t> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i)
    hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

} // namespace wavescope::testing
