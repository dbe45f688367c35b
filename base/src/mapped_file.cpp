#include "wavescope/base/mapped_file.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wavescope/base/error.hpp"

namespace wavescope {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_bad_input("cannot open " + path.string() + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw_bad_input(path.string() + " is not a regular file");
  }
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = path;
  file->size_ = static_cast<std::size_t>(st.st_size);
  if (file->size_ > 0) {
    void *p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      throw_bad_input("cannot map " + path.string() + ": " + reason);
    }
    file->data_ = static_cast<const std::uint8_t *>(p);
    file->mapped_ = true;
  }
  ::close(fd);
  return file;
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<std::uint8_t *>(data_), size_);
}

}  // namespace wavescope
