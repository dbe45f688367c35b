#include "wavescope/hw/transport/device_lock.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw {

std::filesystem::path DeviceLock::path_for(std::string_view device_id,
                                           const std::filesystem::path &directory) {
  std::string name = "am_";
  for (const char c : device_id)
    name += (c == ':' || c == '/') ? '_' : static_cast<char>(std::tolower(c));
  name += ".lock";
  return (directory.empty() ? std::filesystem::temp_directory_path() : directory) / name;
}

DeviceLock::DeviceLock(std::string_view device_id, std::filesystem::path directory)
    : path_(path_for(device_id, directory)) {
  fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0 && errno == ENOENT) {
    const mode_t old = ::umask(0);
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    ::umask(old);
  }
  if (fd_ < 0)
    throw Error(ErrorKind::Device, fmt::format("cannot open the device lock {}: {}", path_.string(),
                                               std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
      throw Error(ErrorKind::Device,
                  fmt::format("device {} is in use by another process (lock {}); find it with "
                              "`lsof {}`",
                              device_id, path_.string(), path_.string()));
    throw Error(ErrorKind::Device,
                fmt::format("cannot lock {}: {}", path_.string(), std::strerror(err)));
  }
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace wavescope::hw
