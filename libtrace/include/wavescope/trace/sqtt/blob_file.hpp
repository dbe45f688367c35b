#pragma once
// Decoding an SQTT blob straight from a file, in fixed-size chunks, so a trace larger than memory
// decodes with a few MiB of buffer.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::trace::sqtt {

// A read-only file read at explicit offsets (pread); throws Error(BadInput) naming the file.
class BlobFile {
public:
  explicit BlobFile(const std::filesystem::path &path);
  ~BlobFile();
  BlobFile(const BlobFile &) = delete;
  BlobFile &operator=(const BlobFile &) = delete;

  std::uint64_t size() const { return size_; }
  const std::filesystem::path &path() const { return path_; }
  // Reads bytes [offset, offset + count) into `out`; throws on a short read.
  void read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const;
  // The whole file (for small blobs).
  std::vector<std::uint8_t> read_all() const;

private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

inline constexpr std::size_t kDefaultChunkBytes = std::size_t{4} << 20;

// Decodes the file `path` chunk by chunk through `sink`. Reports progress in bytes under the stage
// name "decode" when a progress sink is given.
template <class Sink>
DecodeSummary decode_file(const BlobFile &file, const DecodeOptions &options, Sink &&sink,
                          const ProgressSink *progress = nullptr,
                          std::size_t chunk_bytes = kDefaultChunkBytes) {
  PacketDecoder decoder(options);
  const std::uint64_t size = file.size();
  std::vector<std::uint8_t> buffer(chunk_bytes + 64);
  std::uint64_t offset = 0;
  for (;;) {
    offset = decoder.resume_byte();
    const std::size_t count = static_cast<std::size_t>(
        std::min<std::uint64_t>(chunk_bytes, size - std::min(offset, size)));
    const bool last = offset + count >= size;
    file.read(offset, count, buffer.data());
    std::fill(buffer.begin() + static_cast<std::ptrdiff_t>(count), buffer.end(), 0);
    decoder.feed(buffer.data(), offset, count, last, sink);
    if (progress && *progress) (*progress)({"decode", offset + count, size, "bytes"});
    if (last) break;
  }
  return decoder.finish(size);
}

}  // namespace wavescope::trace::sqtt
