#include "wavescope/hw/pci/mapped_mmio.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw {
namespace {

class Timed {
public:
  explicit Timed(TransportStats &stats) : stats_(stats), start_(std::chrono::steady_clock::now()) {}
  ~Timed() {
    stats_.latency_ns +=
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now() - start_)
                                       .count());
  }

private:
  TransportStats &stats_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

MappedMmio::MappedMmio(const std::filesystem::path &file, std::uint64_t size, std::string name)
    : name_(std::move(name)), size_(size) {
  fd_ = ::open(file.c_str(), O_RDWR | O_SYNC | O_CLOEXEC);
  if (fd_ < 0)
    throw Error(ErrorKind::Device, fmt::format("cannot open {} to map {}: {}{}", file.string(),
                                               name_, std::strerror(errno),
                                               errno == EACCES ? " — run as root or grant the tool "
                                                                 "cap_dac_override,cap_sys_rawio"
                                                               : ""));
  base_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (base_ == MAP_FAILED) {
    const int err = errno;
    ::close(fd_);
    throw Error(ErrorKind::Device,
                fmt::format("cannot map {} ({}): {}{}", name_, file.string(), std::strerror(err),
                            err == EPERM ? " — kernel lockdown (secure boot) forbids raw PCI "
                                           "access; disable it for this session"
                                         : ""));
  }
  ::madvise(base_, size_, MADV_DONTFORK);
}

MappedMmio::MappedMmio(int fd, std::uint64_t file_offset, std::uint64_t size, std::string name)
    : name_(std::move(name)), size_(size) {
  fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (fd_ < 0)
    throw Error(ErrorKind::Device, fmt::format("cannot map {}: {}", name_, std::strerror(errno)));
  base_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                 static_cast<off_t>(file_offset));
  if (base_ == MAP_FAILED) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw Error(ErrorKind::Device, fmt::format("cannot map {} (offset {:#x}, {} bytes): {}", name_,
                                               file_offset, size_, std::strerror(err)));
  }
  ::madvise(base_, size_, MADV_DONTFORK);
}

MappedMmio::~MappedMmio() {
  if (base_ && base_ != MAP_FAILED) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
}

volatile std::uint32_t *MappedMmio::at(std::uint64_t offset, std::uint64_t bytes,
                                       const char *what) const {
  if (offset % 4 != 0 || offset > size_ || bytes > size_ - offset)
    throw Error(
        ErrorKind::Internal,
        fmt::format("{} of {}+{:#x} ({} bytes): misaligned or past the end of the {:#x}-byte "
                    "BAR",
                    what, name_, offset, bytes, size_));
  return reinterpret_cast<volatile std::uint32_t *>(static_cast<char *>(base_) + offset);
}

std::uint32_t MappedMmio::read32(std::uint64_t offset) {
  auto *p = at(offset, 4, "read32");
  Timed timed(stats_);
  const std::uint32_t value = *p;
  ++stats_.reads;
  stats_.bytes_read += 4;
  if (hook_) hook_({MmioAccess::Kind::Read32, offset, value, 4});
  return value;
}

void MappedMmio::write32(std::uint64_t offset, std::uint32_t value) {
  auto *p = at(offset, 4, "write32");
  Timed timed(stats_);
  *p = value;
  ++stats_.writes;
  stats_.bytes_written += 4;
  if (hook_) hook_({MmioAccess::Kind::Write32, offset, value, 4});
}

std::vector<std::uint32_t> MappedMmio::read_block(std::uint64_t offset, std::size_t dwords) {
  auto *p = at(offset, 4 * dwords, "read_block");
  Timed timed(stats_);
  std::vector<std::uint32_t> out(dwords);
  for (std::size_t i = 0; i < dwords; ++i) out[i] = p[i];
  ++stats_.block_reads;
  stats_.bytes_read += 4 * dwords;
  if (hook_ && dwords)
    hook_({MmioAccess::Kind::ReadBlock, offset, out[0], static_cast<std::uint32_t>(4 * dwords)});
  return out;
}

void MappedMmio::write_block(std::uint64_t offset, std::span<const std::uint32_t> values) {
  auto *p = at(offset, 4 * values.size(), "write_block");
  Timed timed(stats_);
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  ++stats_.block_writes;
  stats_.bytes_written += 4 * values.size();
  if (hook_ && !values.empty())
    hook_({MmioAccess::Kind::WriteBlock, offset, values[0],
           static_cast<std::uint32_t>(4 * values.size())});
}

void MappedMmio::flush() {
  auto *p = at(0, 4, "flush");
  Timed timed(stats_);
  const std::uint32_t value = *p;
  ++stats_.reads;
  stats_.bytes_read += 4;
  if (hook_) hook_({MmioAccess::Kind::Flush, 0, value, 4});
}

}  // namespace wavescope::hw
