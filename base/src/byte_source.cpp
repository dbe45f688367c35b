#include "wavescope/base/byte_source.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "wavescope/base/error.hpp"

namespace wavescope {

ByteSource ByteSource::file_range(std::filesystem::path path, std::uint64_t offset,
                                  std::uint64_t size) {
  ByteSource s;
  s.path_ = std::move(path);
  s.offset_ = offset;
  s.size_ = size;
  return s;
}

ByteSource ByteSource::whole_file(std::filesystem::path path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw_bad_input("cannot read " + path.string() + ": " + ec.message());
  return file_range(std::move(path), 0, size);
}

ByteSource ByteSource::memory(std::span<const std::uint8_t> bytes,
                              std::shared_ptr<const void> owner) {
  ByteSource s;
  s.data_ = bytes.data();
  s.size_ = bytes.size();
  s.owner_ = std::move(owner);
  return s;
}

ByteSource ByteSource::owned(std::vector<std::uint8_t> bytes) {
  auto kept = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
  const std::span<const std::uint8_t> view(*kept);
  return memory(view, std::move(kept));
}

std::optional<std::span<const std::uint8_t>> ByteSource::view() const {
  if (!in_memory()) return std::nullopt;
  return std::span<const std::uint8_t>(data_, static_cast<std::size_t>(size_));
}

void ByteSource::read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const {
  if (offset > size_ || count > size_ - offset)
    throw_bad_input(describe() + ": cannot read " + std::to_string(count) + " bytes at offset " +
                    std::to_string(offset) + " of " + std::to_string(size_));
  if (count == 0) return;
  if (in_memory()) {
    std::memcpy(out, data_ + offset, count);
    return;
  }
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_bad_input("cannot open " + path_.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n =
        ::pread(fd, out + done, count - done, static_cast<off_t>(offset_ + offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = n < 0 ? std::strerror(errno) : "the file is shorter";
      ::close(fd);
      throw_bad_input(path_.string() + ": cannot read " + std::to_string(count) +
                      " bytes at offset " + std::to_string(offset_ + offset) + ": " + reason);
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

std::vector<std::uint8_t> ByteSource::read_all() const {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size_));
  read(0, bytes.size(), bytes.data());
  return bytes;
}

ByteSource ByteSource::slice(std::uint64_t offset, std::uint64_t size) const {
  if (offset > size_ || size > size_ - offset)
    throw_bad_input(describe() + ": bytes " + std::to_string(offset) + ".." +
                    std::to_string(offset + size) + " are past its end (" + std::to_string(size_) +
                    " bytes)");
  ByteSource s = *this;
  s.size_ = size;
  if (in_memory())
    s.data_ = data_ + offset;
  else
    s.offset_ = offset_ + offset;
  return s;
}

std::string ByteSource::describe() const {
  if (in_memory()) return std::to_string(size_) + " bytes in memory";
  std::error_code ec;
  const auto file_size = std::filesystem::file_size(path_, ec);
  if (offset_ == 0 && !ec && file_size == size_) return path_.string();
  return path_.string() + " bytes " + std::to_string(offset_) + ".." +
         std::to_string(offset_ + size_);
}

}  // namespace wavescope
