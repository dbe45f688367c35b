#include "wavescope/trace/sqtt/blob_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::trace::sqtt {

BlobFile::BlobFile(const std::filesystem::path &path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    throw_bad_input(
        fmt::format("cannot open SQTT blob {}: {}", path.string(), std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw_bad_input(fmt::format("{} is not a regular file", path.string()));
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
}

BlobFile::~BlobFile() {
  if (fd_ >= 0) ::close(fd_);
}

void BlobFile::read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const {
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n = ::pread(fd_, out + done, count - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw_bad_input(fmt::format(
          "{}: cannot read {} bytes at offset {}{}", path_.string(), count, offset,
          n < 0 ? std::string(": ") + std::strerror(errno) : std::string(" (file shrank)")));
    done += static_cast<std::size_t>(n);
  }
}

std::vector<std::uint8_t> BlobFile::read_all() const {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size_));
  read(0, bytes.size(), bytes.data());
  return bytes;
}

}  // namespace wavescope::trace::sqtt
