#include "wavescope/trace/sqtt/blob_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::trace::sqtt {

BlobFile::BlobFile(const std::filesystem::path &path) : path_(path) { open_file(0, std::nullopt); }

BlobFile::BlobFile(const ByteSource &source) {
  if (source.in_memory()) {
    memory_ = source;
    size_ = source.size();
    return;
  }
  path_ = source.path();
  open_file(source.file_offset(), source.size());
}

namespace {

// O_NOATIME (no access-time update on reads) is allowed only on files the process owns; once an
// open is refused for it, later opens go without it (one refused open per process, not per blob).
std::atomic<bool> g_noatime_allowed{true};

int open_read_only(const char *path) {
#ifdef O_NOATIME
  if (g_noatime_allowed.load(std::memory_order_relaxed)) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
    g_noatime_allowed.store(false, std::memory_order_relaxed);
  }
#endif
  return ::open(path, O_RDONLY | O_CLOEXEC);
}

}  // namespace

// Opens path_ for [offset, offset + size), or the whole file when no size is given. With a size
// (a capture's blob, whose file the capture checked when it was opened) the file is not stat'ed
// again: a file that shrank since fails the read, naming the bytes missing. A capture lists
// thousands of small blobs, each opened, read once and closed: three system calls.
void BlobFile::open_file(std::uint64_t offset, std::optional<std::uint64_t> size) {
  fd_ = open_read_only(path_.c_str());
  if (fd_ < 0)
    throw_bad_input(
        fmt::format("cannot open SQTT blob {}: {}", path_.string(), std::strerror(errno)));
  file_offset_ = offset;
  if (size) {
    size_ = *size;
  } else {
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw_bad_input(fmt::format("{} is not a regular file", path_.string()));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
#ifdef POSIX_FADV_SEQUENTIAL
  // Read-ahead matters for blobs read in several chunks; most blobs are a few KB, read at once,
  // where the advice is one more system call per blob.
  if (size_ > kDefaultChunkBytes)
    ::posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(size_),
                    POSIX_FADV_SEQUENTIAL);
#endif
}

BlobFile::~BlobFile() {
  if (fd_ >= 0) ::close(fd_);
}

void BlobFile::read(std::uint64_t offset, std::size_t count, std::uint8_t *out) const {
  if (fd_ < 0) {
    memory_.read(offset, count, out);
    return;
  }
  if (offset > size_ || count > size_ - offset)
    throw_bad_input(fmt::format("{}: cannot read {} bytes at offset {} of the {}-byte blob",
                                path_.string(), count, offset, size_));
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n =
        ::pread(fd_, out + done, count - done, static_cast<off_t>(file_offset_ + offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw_bad_input(fmt::format("{}: cannot read {} bytes at offset {}: {}", path_.string(),
                                  count, offset, std::strerror(errno)));
    if (n == 0)
      throw_bad_input(fmt::format("{}: the SQTT blob at bytes {}..{} is past the end of the file, "
                                  "which ends at byte {} (truncated or changed since the capture "
                                  "was opened?)",
                                  path_.string(), file_offset_, file_offset_ + size_,
                                  file_offset_ + offset + done));
    done += static_cast<std::size_t>(n);
  }
}

std::vector<std::uint8_t> BlobFile::read_all() const {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size_));
  read(0, bytes.size(), bytes.data());
  return bytes;
}

}  // namespace wavescope::trace::sqtt
