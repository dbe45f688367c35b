#pragma once
// Where a run of bytes lives, so readers need not care: a file (or a range of one), or memory
// that the source keeps alive (a mapped file, a buffer it owns, or memory shared with a parsed
// document). Captures hold their SQTT blobs, PMC buffers and code objects this way, whether they
// came from a capture folder, a profile pickle or an .rgp file.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wavescope {

class ByteSource {
public:
  ByteSource() = default;
  // `size` bytes of `path` from `offset`; nothing is opened until the bytes are read.
  static ByteSource file_range(std::filesystem::path path, std::uint64_t offset,
                               std::uint64_t size);
  // The whole of `path`, its size taken now; throws Error(BadInput) if it cannot be stat'ed.
  static ByteSource whole_file(std::filesystem::path path);
  // Bytes in memory that `owner` keeps alive (may be null when the caller guarantees lifetime).
  static ByteSource memory(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner);
  static ByteSource owned(std::vector<std::uint8_t> bytes);

  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool in_memory() const { return data_ != nullptr || (path_.empty() && size_ == 0); }
  // The bytes, when they are in memory.
  std::optional<std::span<const std::uint8_t>> view() const;
  // The file holding the bytes (empty when they are in memory) and where in it they start.
  const std::filesystem::path &path() const { return path_; }
  std::uint64_t file_offset() const { return offset_; }

  // Reads bytes [offset, offset + count) of this source; throws Error(BadInput) naming the file
  // and offset when they cannot all be read (a missing or shrunken file, a range past the end).
  void read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const;
  std::vector<std::uint8_t> read_all() const;
  // Bytes [offset, offset + size) of this source as a source of their own.
  ByteSource slice(std::uint64_t offset, std::uint64_t size) const;

  // For messages: "se1.bin", "profile.pkl bytes 1200..5600", "4096 bytes in memory".
  std::string describe() const;

private:
  std::filesystem::path path_;
  std::uint64_t offset_ = 0;
  std::uint64_t size_ = 0;
  const std::uint8_t *data_ = nullptr;
  std::shared_ptr<const void> owner_;
};

}  // namespace wavescope
