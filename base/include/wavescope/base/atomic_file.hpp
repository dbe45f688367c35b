#pragma once
// Writing output files atomically: the bytes go to a temporary file beside the target, are
// flushed to disk, and only then renamed over the final name. A crash or error never leaves a
// truncated file under the final name.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wavescope/base/error.hpp"

namespace wavescope {

inline void write_file_atomically(const std::filesystem::path &path,
                                  std::span<const unsigned char> bytes) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string tmp = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  auto fail = [&](const char *what) {
    const std::string reason = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    std::filesystem::remove(tmp);
    throw Error(ErrorKind::Internal,
                std::string("cannot write ") + path.string() + ": " + what + ": " + reason);
  };
  if (fd < 0) {
    throw Error(ErrorKind::Internal,
                "cannot create a file in " + dir.string() + ": " + std::strerror(errno));
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) fail("chmod");
  if (::fsync(fd) != 0) fail("fsync");
  if (::close(fd) != 0) {
    std::filesystem::remove(tmp);
    throw Error(ErrorKind::Internal, "cannot write " + path.string() + ": close failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::filesystem::remove(tmp);
    throw Error(ErrorKind::Internal,
                "cannot rename " + tmp + " to " + path.string() + ": " + reason);
  }
}

inline void write_file_atomically(const std::filesystem::path &path, std::string_view text) {
  write_file_atomically(
      path, std::span<const unsigned char>(reinterpret_cast<const unsigned char *>(text.data()),
                                           text.size()));
}

}  // namespace wavescope
