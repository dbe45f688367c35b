#pragma once
// SHA-256, computed by OpenSSL's libcrypto: the identity of images, dumps, backups, capture blobs
// and UOp graphs. One implementation for every library; lower-case hex is the printed form.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace wavescope {

class ByteSource;

using Sha256Digest = std::array<std::uint8_t, 32>;

// Incremental hashing: update() any number of times, then finish() once.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(Sha256 &&) noexcept;
  Sha256 &operator=(Sha256 &&) noexcept;

  Sha256 &update(std::span<const std::uint8_t> bytes);
  Sha256 &update(std::string_view text);
  Sha256Digest finish();

private:
  struct Context;
  std::unique_ptr<Context> context_;
};

Sha256Digest sha256(std::span<const std::uint8_t> bytes);
// 64 lower-case hex digits.
std::string to_hex(const Sha256Digest &digest);
std::string sha256_hex(std::span<const std::uint8_t> bytes);
// Reads the source in 1 MiB chunks unless it is already in memory.
std::string sha256_hex(const ByteSource &bytes);

}  // namespace wavescope
