#include "wavescope/hw/pci/sysfs_transport.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "pci/sysfs_files.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/pci/mapped_mmio.hpp"

namespace wavescope::hw {
namespace {

namespace fs = std::filesystem;

constexpr std::uint16_t kNavi31 = 0x744C;

using sysfs::devices_dir;
using sysfs::driver_of;
using sysfs::read_hex;

}  // namespace

SysfsPciFunction::SysfsPciFunction(std::string bdf, SysfsOptions options)
    : bdf_(std::move(bdf)), options_(std::move(options)) {
  std::error_code ec;
  if (!fs::is_directory(devices_dir(options_.sysfs_root), ec))
    throw Error(ErrorKind::Device,
                fmt::format("PCI sysfs not available on this host ({} is missing)",
                            devices_dir(options_.sysfs_root).string()));
  const auto dir = device_dir();
  if (!fs::exists(dir, ec))
    throw Error(ErrorKind::Device,
                fmt::format("no PCI device {} (looked in {})", bdf_, dir.string()));

  const auto vendor = read_hex(dir / "vendor");
  const auto device = read_hex(dir / "device");
  if (!vendor || !device)
    throw Error(ErrorKind::Device,
                fmt::format("cannot read the ids of PCI device {} in {}", bdf_, dir.string()));
  const auto &ids = options_.device_ids;
  if (*vendor != 0x1002 ||
      (!ids.empty() && std::find(ids.begin(), ids.end(), *device) == ids.end()))
    throw Error(ErrorKind::Device,
                fmt::format("PCI device {} is {:04x}:{:04x}, not a supported AMD GPU (looked for "
                            "1002:744c)",
                            bdf_, *vendor, *device));

  // Permission probe (A.3): opening `enable` read-write needs what the BAR mapping needs.
  const auto enable = dir / "enable";
  const int probe = ::open(enable.c_str(), O_RDWR | O_CLOEXEC);
  if (probe < 0) {
    const int err = errno;
    if (err == EACCES || err == EPERM)
      throw Error(ErrorKind::Device,
                  fmt::format("cannot access PCI device {}: need root or capabilities (opening {} "
                              "read-write: {}) — run as root or `setcap "
                              "cap_dac_override,cap_sys_rawio+ep` on the tool",
                              bdf_, enable.string(), std::strerror(err)));
    throw Error(ErrorKind::Device,
                fmt::format("cannot open {}: {}", enable.string(), std::strerror(err)));
  }
  ::close(probe);

  driver_at_open_ = driver_of(dir);
  if (driver_at_open_) {
    if (!options_.allow_unbind)
      throw Error(
          ErrorKind::State,
          fmt::format("kernel driver {} is bound to {}; wavescope does not unbind it on its "
                      "own: unbinding turns off every display on this GPU and takes the GPU "
                      "from every process using it. Allow it explicitly (it will write {} to "
                      "{}), or unbind it yourself, or boot with {} blacklisted",
                      *driver_at_open_, bdf_, bdf_, (dir / "driver" / "unbind").string(),
                      *driver_at_open_));
    write_sysfs(dir / "driver" / "unbind", bdf_, fmt::format("unbind {}", *driver_at_open_));
    if (driver_of(dir))
      throw Error(ErrorKind::State,
                  fmt::format("kernel driver {} still bound to {} after unbind — stop the programs "
                              "using the GPU, `modprobe -r {}`, or blacklist it",
                              *driver_at_open_, bdf_, *driver_at_open_));
  }
  if (options_.allow_remove_siblings) {
    for (char fn = '1'; fn <= '7'; ++fn) {
      const auto sibling =
          devices_dir(options_.sysfs_root) / (bdf_.substr(0, bdf_.size() - 1) + fn);
      if (fs::exists(sibling / "remove", ec))
        write_sysfs(sibling / "remove", "1", "hot-remove sibling function (until a PCI rescan)");
    }
  }
  if (options_.enable_device) write_sysfs(enable, "1", "enable memory decoding");
  read_resources();
}

SysfsPciFunction::~SysfsPciFunction() {
  if (config_fd_ >= 0) ::close(config_fd_);
}

fs::path SysfsPciFunction::device_dir() const { return devices_dir(options_.sysfs_root) / bdf_; }

void SysfsPciFunction::write_sysfs(const fs::path &file, std::string_view text,
                                   std::string_view why) {
  const std::string action = fmt::format("write {} to {} ({})", text, file.string(), why);
  if (options_.log) options_.log(action);
  actions_.push_back(action);
  sysfs::write_file(file, text, action);
}

void SysfsPciFunction::read_resources() { bars_ = sysfs::read_resources(device_dir()); }

std::uint32_t SysfsPciFunction::config_read(std::uint32_t offset, unsigned width) {
  if (closed_) throw Error(ErrorKind::Internal, fmt::format("{} is closed", id()));
  if ((width != 1 && width != 2 && width != 4) || offset + width > 4096)
    throw Error(ErrorKind::Internal,
                fmt::format("config read of {} at {:#x}: bad width {}", bdf_, offset, width));
  const auto file = device_dir() / "config";
  if (config_fd_ < 0) config_fd_ = ::open(file.c_str(), O_RDWR | O_SYNC | O_CLOEXEC);
  if (config_fd_ < 0)
    throw Error(ErrorKind::Device,
                fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  std::uint8_t bytes[4] = {};
  if (::pread(config_fd_, bytes, width, offset) != static_cast<ssize_t>(width))
    throw Error(ErrorKind::Device,
                fmt::format("config read of {} bytes at {:#x} from {} failed: {}", width, offset,
                            file.string(), std::strerror(errno)));
  std::uint32_t value = 0;
  for (unsigned i = 0; i < width; ++i) value |= std::uint32_t(bytes[i]) << (8 * i);
  return value;
}

void SysfsPciFunction::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  config_read(offset, width);  // validates and opens
  std::uint8_t bytes[4];
  for (unsigned i = 0; i < 4; ++i) bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
  if (::pwrite(config_fd_, bytes, width, offset) != static_cast<ssize_t>(width))
    throw Error(ErrorKind::Device, fmt::format("config write of {:#x} at {:#x} to {} failed: {}",
                                               value, offset, bdf_, std::strerror(errno)));
}

BarInfo SysfsPciFunction::bar(unsigned index) { return index < 6 ? bars_[index] : BarInfo{}; }

Mmio &SysfsPciFunction::map_bar(unsigned index) {
  if (closed_) throw Error(ErrorKind::Internal, fmt::format("{} is closed", id()));
  if (index >= 6 || !bars_[index].present)
    throw Error(
        ErrorKind::Device,
        fmt::format("BAR{} of {} not assigned by the firmware/kernel (its line in {} is zero) "
                    "— check the BIOS (Above 4G decoding, Resizable BAR) or boot with "
                    "pci=realloc",
                    index, bdf_, (device_dir() / "resource").string()));
  if (bars_[index].is_io)
    throw Error(ErrorKind::Device,
                fmt::format("BAR{} of {} is an I/O BAR, not memory", index, bdf_));
  if (!regions_[index]) {
    const auto file = device_dir() / fmt::format("resource{}", index);
    if (options_.mmio_factory) {
      regions_[index] = options_.mmio_factory(file, index, bars_[index].size);
    } else {
      try {
        regions_[index] = std::make_unique<MappedMmio>(file, bars_[index].size,
                                                       fmt::format("BAR{} of {}", index, bdf_));
      } catch (const Error &e) {
        throw Error(e.kind(), fmt::format("cannot map BAR{} of {}: {}", index, bdf_, e.what()));
      }
    }
  }
  return *regions_[index];
}

void SysfsPciFunction::close() {
  if (closed_) return;
  closed_ = true;
  for (auto &region : regions_) region.reset();
  if (config_fd_ >= 0) ::close(config_fd_);
  config_fd_ = -1;
  options_.lock.reset();
}

std::vector<PciDeviceEntry> list_pci_devices(const std::filesystem::path &sysfs_root) {
  std::vector<PciDeviceEntry> out;
  std::error_code ec;
  for (fs::directory_iterator it(devices_dir(sysfs_root), ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto dir = it->path();
    const auto vendor = read_hex(dir / "vendor");
    const auto device = read_hex(dir / "device");
    if (!vendor || !device) continue;
    out.push_back({dir.filename().string(), static_cast<std::uint16_t>(*vendor),
                   static_cast<std::uint16_t>(*device),
                   static_cast<std::uint32_t>(read_hex(dir / "class").value_or(0)),
                   driver_of(dir)});
  }
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.bdf < b.bdf; });
  return out;
}

std::vector<PciDeviceEntry> list_navi31_devices(const std::filesystem::path &sysfs_root,
                                                std::span<const std::uint16_t> device_ids) {
  const std::uint16_t navi31[] = {kNavi31};
  const auto ids = device_ids.empty() ? std::span<const std::uint16_t>(navi31) : device_ids;
  auto all = list_pci_devices(sysfs_root);
  std::erase_if(all, [&](const PciDeviceEntry &e) {
    return e.vendor_id != 0x1002 || std::find(ids.begin(), ids.end(), e.device_id) == ids.end();
  });
  return all;
}

}  // namespace wavescope::hw
