#include "wavescope/hw/flash/sha256.hpp"

#include <memory>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::flash {

std::string sha256_hex(std::span<const std::uint8_t> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw Error(ErrorKind::Internal, "OpenSSL SHA-256 failed");
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace wavescope::hw::flash
