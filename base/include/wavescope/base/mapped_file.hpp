#pragma once
// A whole file mapped read-only into memory, for readers that keep views of its bytes instead of
// copying them (the pickle reader, captures backed by a profile file). Pages are read on first
// touch, so mapping a multi-GB file costs nothing until it is read.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

namespace wavescope {

class MappedFile {
public:
  // Maps `path`; throws Error(BadInput) naming the file when it cannot be opened or is not a
  // regular file. An empty file maps to an empty span.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path &path);

  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  const std::filesystem::path &path() const { return path_; }

private:
  MappedFile() = default;
  std::filesystem::path path_;
  const std::uint8_t *data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace wavescope
