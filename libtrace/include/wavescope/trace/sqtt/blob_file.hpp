#pragma once
// Decoding an SQTT blob straight from where it lives (a file, a range of one, or memory), in
// fixed-size chunks, so a trace larger than memory decodes with a few MiB of buffer.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/progress.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"

namespace wavescope::trace::sqtt {

// A read-only blob read at explicit offsets: a file (or a range of one) kept open and read with
// pread, or bytes in memory. Throws Error(BadInput) naming the file.
class BlobFile {
public:
  explicit BlobFile(const std::filesystem::path &path);
  explicit BlobFile(const ByteSource &source);
  ~BlobFile();
  BlobFile(const BlobFile &) = delete;
  BlobFile &operator=(const BlobFile &) = delete;

  std::uint64_t size() const { return size_; }
  // The file the blob is in (empty for a blob in memory).
  const std::filesystem::path &path() const { return path_; }
  // Reads bytes [offset, offset + count) into `out`; throws on a short read.
  void read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const;
  // The whole blob (for small blobs).
  std::vector<std::uint8_t> read_all() const;

private:
  void open_file(std::uint64_t offset, std::optional<std::uint64_t> size);

  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t file_offset_ = 0;
  std::uint64_t size_ = 0;
  ByteSource memory_;  // the blob, when it is in memory
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
  // No bigger than the blob: most blobs are a few KB, and a chunk-sized buffer (allocated and
  // zeroed for each) cost more than decoding them.
  constexpr std::size_t kPadding = 64;  // zeros after the bytes (feed() needs 32)
  const std::size_t capacity = static_cast<std::size_t>(std::min<std::uint64_t>(chunk_bytes, size));
  std::vector<std::uint8_t> buffer(capacity + kPadding);
  std::uint64_t offset = 0;
  for (;;) {
    offset = decoder.resume_byte();
    const std::size_t count =
        static_cast<std::size_t>(std::min<std::uint64_t>(capacity, size - std::min(offset, size)));
    const bool last = offset + count >= size;
    file.read(offset, count, buffer.data());
    std::fill_n(buffer.begin() + static_cast<std::ptrdiff_t>(count), kPadding, 0);
    decoder.feed(buffer.data(), offset, count, last, sink);
    if (progress && *progress) (*progress)({"decode", offset + count, size, "bytes"});
    if (last) break;
  }
  return decoder.finish(size);
}

}  // namespace wavescope::trace::sqtt
