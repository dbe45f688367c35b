#include "wavescope/base/sha256.hpp"

#include <algorithm>
#include <vector>

#include <openssl/evp.h>

#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope {

struct Sha256::Context {
  EVP_MD_CTX *ctx = nullptr;
  ~Context() { EVP_MD_CTX_free(ctx); }
};

namespace {

[[noreturn]] void openssl_failed() {
  throw Error(ErrorKind::Internal, "OpenSSL could not compute a SHA-256 digest");
}

}  // namespace

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->ctx = EVP_MD_CTX_new();
  if (!context_->ctx || EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
    openssl_failed();
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256 &&) noexcept = default;
Sha256 &Sha256::operator=(Sha256 &&) noexcept = default;

Sha256 &Sha256::update(std::span<const std::uint8_t> bytes) {
  if (EVP_DigestUpdate(context_->ctx, bytes.data(), bytes.size()) != 1) openssl_failed();
  return *this;
}

Sha256 &Sha256::update(std::string_view text) {
  return update(std::span(reinterpret_cast<const std::uint8_t *>(text.data()), text.size()));
}

Sha256Digest Sha256::finish() {
  Sha256Digest digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_->ctx, digest.data(), &length) != 1 || length != digest.size())
    openssl_failed();
  return digest;
}

Sha256Digest sha256(std::span<const std::uint8_t> bytes) { return Sha256().update(bytes).finish(); }

std::string to_hex(const Sha256Digest &digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * digest.size());
  for (const std::uint8_t b : digest) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 0xF];
  }
  return hex;
}

std::string sha256_hex(std::span<const std::uint8_t> bytes) { return to_hex(sha256(bytes)); }

std::string sha256_hex(const ByteSource &bytes) {
  if (const auto view = bytes.view()) return sha256_hex(*view);
  Sha256 hash;
  std::vector<std::uint8_t> buffer(std::size_t{1} << 20);
  for (std::uint64_t at = 0; at < bytes.size(); at += buffer.size()) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes.size() - at));
    bytes.read(at, n, buffer.data());
    hash.update(std::span(buffer.data(), n));
  }
  return to_hex(hash.finish());
}

}  // namespace wavescope
