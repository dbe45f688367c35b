#include "pci/sysfs_files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sysfs {

namespace fs = std::filesystem;

fs::path devices_dir(const fs::path &root) { return root / "bus" / "pci" / "devices"; }

std::optional<std::string> read_line(const fs::path &file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  std::string text;
  std::getline(in, text);
  return text;
}

std::optional<std::uint64_t> read_hex(const fs::path &file) {
  const auto text = read_line(file);
  if (!text) return std::nullopt;
  try {
    return std::stoull(*text, nullptr, 16);
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

std::optional<std::string> driver_of(const fs::path &device) {
  std::error_code ec;
  const auto link = device / "driver";
  if (!fs::is_symlink(link, ec) && !fs::exists(link, ec)) return std::nullopt;
  const auto target = fs::read_symlink(link, ec);
  return ec ? link.filename().string() : target.filename().string();
}

std::array<BarInfo, 6> read_resources(const fs::path &device) {
  constexpr std::uint64_t kIoResourceIo = 0x100;
  constexpr std::uint64_t kIoResourcePrefetch = 0x2000;
  constexpr std::uint64_t kIoResourceMem64 = 0x100000;
  std::array<BarInfo, 6> bars{};
  std::ifstream in(device / "resource");
  std::string line;
  for (unsigned index = 0; index < 6 && std::getline(in, line); ++index) {
    std::istringstream fields(line);
    std::uint64_t start = 0, end = 0, flags = 0;
    fields >> std::hex >> start >> end >> flags;
    BarInfo &bar = bars[index];
    bar.present = end != 0;
    bar.bus_address = start;
    bar.size = end ? end - start + 1 : 0;
    bar.is_io = flags & kIoResourceIo;
    bar.is64 = flags & kIoResourceMem64;
    bar.prefetchable = flags & kIoResourcePrefetch;
  }
  return bars;
}

void write_file(const fs::path &file, std::string_view text, const std::string &action) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw Error(ErrorKind::Device, fmt::format("cannot {}: {}", action, std::strerror(err)));
  }
  ::close(fd);
}

}  // namespace wavescope::hw::sysfs
