#include "wavescope/hw/pci/vfio_transport.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <linux/vfio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "pci/sysfs_files.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/pci/mapped_mmio.hpp"

namespace wavescope::hw {
namespace {

namespace fs = std::filesystem;

class LinuxVfioKernel final : public VfioKernel {
public:
  int open(const fs::path &path, int flags) override { return ::open(path.c_str(), flags); }
  int ioctl(int fd, unsigned long request, std::uintptr_t argument) override {
    return ::ioctl(fd, request, argument);
  }
};

std::string errno_text() { return std::strerror(errno); }

// A region without mmap support: each register access is one 4-byte pread/pwrite, which vfio-pci
// performs as a single 32-bit access.
class RegionFileMmio final : public Mmio {
public:
  RegionFileMmio(int fd, std::uint64_t offset, std::uint64_t size, std::string name)
      : fd_(fd), offset_(offset), size_(size), name_(std::move(name)) {}
  std::uint64_t size() const override { return size_; }
  std::uint32_t read32(std::uint64_t offset) override {
    const std::uint32_t value = load(offset, "read32");
    ++stats_.reads;
    stats_.bytes_read += 4;
    if (hook_) hook_({MmioAccess::Kind::Read32, offset, value, 4});
    return value;
  }
  void write32(std::uint64_t offset, std::uint32_t value) override {
    store(offset, value, "write32");
    ++stats_.writes;
    stats_.bytes_written += 4;
    if (hook_) hook_({MmioAccess::Kind::Write32, offset, value, 4});
  }
  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override {
    std::vector<std::uint32_t> out(dwords);
    for (std::size_t i = 0; i < dwords; ++i) out[i] = load(offset + 4 * i, "read_block");
    ++stats_.block_reads;
    stats_.bytes_read += 4 * dwords;
    return out;
  }
  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override {
    for (std::size_t i = 0; i < values.size(); ++i) store(offset + 4 * i, values[i], "write_block");
    ++stats_.block_writes;
    stats_.bytes_written += 4 * values.size();
  }
  void flush() override {
    load(0, "flush");
    ++stats_.reads;
  }
  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook hook) override { hook_ = std::move(hook); }

private:
  void check(std::uint64_t offset, const char *what) const {
    if (offset % 4 != 0 || offset + 4 > size_)
      throw Error(ErrorKind::Internal,
                  fmt::format("{} of {}+{:#x}: misaligned or past the end", what, name_, offset));
  }
  std::uint32_t load(std::uint64_t offset, const char *what) {
    check(offset, what);
    std::uint32_t value = 0;
    if (::pread(fd_, &value, 4, static_cast<off_t>(offset_ + offset)) != 4)
      throw Error(ErrorKind::Device,
                  fmt::format("{} of {}+{:#x} failed: {}", what, name_, offset, errno_text()));
    return value;
  }
  void store(std::uint64_t offset, std::uint32_t value, const char *what) {
    check(offset, what);
    if (::pwrite(fd_, &value, 4, static_cast<off_t>(offset_ + offset)) != 4)
      throw Error(ErrorKind::Device,
                  fmt::format("{} of {}+{:#x} failed: {}", what, name_, offset, errno_text()));
  }
  int fd_;
  std::uint64_t offset_;
  std::uint64_t size_;
  std::string name_;
  TransportStats stats_;
  MmioTraceHook hook_;
};

}  // namespace

std::shared_ptr<VfioKernel> linux_vfio_kernel() { return std::make_shared<LinuxVfioKernel>(); }

VfioPciFunction::VfioPciFunction(std::string bdf, VfioOptions options)
    : bdf_(std::move(bdf)), options_(std::move(options)) {
  const OnFailure release([this] { close(); });  // the descriptors opened so far
  open_device();
}

void VfioPciFunction::open_device() {
  if (!options_.kernel) options_.kernel = linux_vfio_kernel();
  const auto device = sysfs::devices_dir(options_.sysfs_root) / bdf_;
  std::error_code ec;
  if (!fs::exists(device, ec))
    throw Error(ErrorKind::Device,
                fmt::format("no PCI device {} (looked in {})", bdf_, device.string()));
  try {
    const auto link = fs::read_symlink(device / "iommu_group");
    group_ = link.filename().string();
  } catch (const fs::filesystem_error &) {
    throw Error(ErrorKind::Device,
                fmt::format("{} has no IOMMU group: the IOMMU is off; enable it (intel_iommu=on or "
                            "amd_iommu=on) or use the sysfs path",
                            bdf_));
  }
  auto &kernel = *options_.kernel;
  const auto container_path = options_.dev_root / "vfio" / "vfio";
  container_ = kernel.open(container_path, O_RDWR | O_CLOEXEC);
  if (container_ < 0)
    throw Error(ErrorKind::Device,
                fmt::format("vfio-pci not available ({}: {}) — load it with `modprobe vfio-pci`",
                            container_path.string(), errno_text()));
  if (const int version = kernel.ioctl(container_, VFIO_GET_API_VERSION, 0);
      version != VFIO_API_VERSION)
    throw Error(ErrorKind::Device, fmt::format("VFIO API version {} is not the {} this tool knows",
                                               version, VFIO_API_VERSION));
  if (kernel.ioctl(container_, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU) <= 0)
    throw Error(ErrorKind::Device,
                "VFIO has no type1v2 IOMMU on this host; enable the IOMMU (intel_iommu=on or "
                "amd_iommu=on) — the unsafe no-IOMMU mode is not used");
  bind_to_vfio(device);
  attach_group();
  bars_ = sysfs::read_resources(device);
  for (unsigned i = 0; i < 6; ++i) {
    const Region r = region(i);
    if (r.size == 0)
      bars_[i].present = false;
    else
      bars_[i].size = r.size;
  }
  config_ = region(VFIO_PCI_CONFIG_REGION_INDEX);
}

VfioPciFunction::~VfioPciFunction() { close(); }

void VfioPciFunction::announce(const fs::path &file, std::string_view text, std::string_view why) {
  const std::string action = fmt::format("write {} to {} ({})", text, file.string(), why);
  if (options_.log) options_.log(action);
  actions_.push_back(action);
  sysfs::write_file(file, text, action);
}

void VfioPciFunction::bind_to_vfio(const fs::path &device) {
  const auto driver = sysfs::driver_of(device);
  if (driver == "vfio-pci") return;
  if (driver) {
    if (!options_.allow_unbind)
      throw Error(ErrorKind::State,
                  fmt::format("kernel driver {} is bound to {}; VFIO needs it unbound, which turns "
                              "off every display on this GPU and takes it from every process "
                              "using it. Allow unbinding explicitly, or unbind it yourself",
                              *driver, bdf_));
    announce(device / "driver" / "unbind", bdf_, fmt::format("unbind {}", *driver));
  }
  announce(device / "driver_override", "vfio-pci", "let vfio-pci claim the device");
  announce(sysfs::devices_dir(options_.sysfs_root).parent_path() / "drivers_probe", bdf_,
           "bind it to vfio-pci");
}

void VfioPciFunction::attach_group() {
  auto &kernel = *options_.kernel;
  const auto group_path = options_.dev_root / "vfio" / group_;
  group_fd_ = kernel.open(group_path, O_RDWR | O_CLOEXEC);
  if (group_fd_ < 0)
    throw Error(ErrorKind::Device, fmt::format("cannot open IOMMU group {} ({}): {}", group_,
                                               group_path.string(), errno_text()));
  vfio_group_status status{};
  status.argsz = sizeof status;
  if (kernel.ioctl(group_fd_, VFIO_GROUP_GET_STATUS, reinterpret_cast<std::uintptr_t>(&status)) !=
      0)
    throw Error(ErrorKind::Device,
                fmt::format("VFIO_GROUP_GET_STATUS on group {}: {}", group_, errno_text()));
  if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
    std::string others;
    std::error_code ec;
    const auto members = options_.sysfs_root / "kernel" / "iommu_groups" / group_ / "devices";
    for (const auto &entry : fs::directory_iterator(members, ec)) {
      const auto driver = sysfs::driver_of(entry.path());
      if (driver && *driver != "vfio-pci")
        others += fmt::format("{}{} ({})", others.empty() ? "" : ", ",
                              entry.path().filename().string(), *driver);
    }
    throw Error(ErrorKind::State,
                fmt::format("IOMMU group {} contains devices not bound to vfio-pci: {} — bind them "
                            "to vfio-pci or unbind them",
                            group_, others.empty() ? "(unknown)" : others));
  }
  if (kernel.ioctl(group_fd_, VFIO_GROUP_SET_CONTAINER,
                   reinterpret_cast<std::uintptr_t>(&container_)) != 0)
    throw Error(ErrorKind::Device,
                fmt::format("VFIO_GROUP_SET_CONTAINER for group {}: {}", group_, errno_text()));
  if (kernel.ioctl(container_, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU) != 0)
    throw Error(ErrorKind::Device, fmt::format("VFIO_SET_IOMMU(type1v2): {}", errno_text()));
  device_ = kernel.ioctl(group_fd_, VFIO_GROUP_GET_DEVICE_FD,
                         reinterpret_cast<std::uintptr_t>(bdf_.c_str()));
  if (device_ < 0)
    throw Error(ErrorKind::Device,
                fmt::format("VFIO_GROUP_GET_DEVICE_FD for {}: {}", bdf_, errno_text()));
  vfio_device_info info{};
  info.argsz = sizeof info;
  if (kernel.ioctl(device_, VFIO_DEVICE_GET_INFO, reinterpret_cast<std::uintptr_t>(&info)) != 0 ||
      !(info.flags & VFIO_DEVICE_FLAGS_PCI))
    throw Error(ErrorKind::Device, fmt::format("{} is not a VFIO PCI device", bdf_));
}

VfioPciFunction::Region VfioPciFunction::region(unsigned index) {
  vfio_region_info info{};
  info.argsz = sizeof info;
  info.index = index;
  if (options_.kernel->ioctl(device_, VFIO_DEVICE_GET_REGION_INFO,
                             reinterpret_cast<std::uintptr_t>(&info)) != 0)
    return {};
  return {info.size, info.offset, (info.flags & VFIO_REGION_INFO_FLAG_MMAP) != 0};
}

std::uint32_t VfioPciFunction::config_read(std::uint32_t offset, unsigned width) {
  if (closed_) throw Error(ErrorKind::Internal, fmt::format("{} is closed", id()));
  if ((width != 1 && width != 2 && width != 4) || offset + width > config_.size)
    throw Error(ErrorKind::Internal,
                fmt::format("config read of {} at {:#x} ({} bytes) is outside its {}-byte config "
                            "space",
                            bdf_, offset, width, config_.size));
  std::uint8_t bytes[4] = {};
  if (::pread(device_, bytes, width, static_cast<off_t>(config_.offset + offset)) !=
      static_cast<ssize_t>(width))
    throw Error(ErrorKind::Device,
                fmt::format("config read of {} at {:#x}: {}", bdf_, offset, errno_text()));
  std::uint32_t value = 0;
  for (unsigned i = 0; i < width; ++i) value |= std::uint32_t(bytes[i]) << (8 * i);
  return value;
}

void VfioPciFunction::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  config_read(offset, width);  // validates
  std::uint8_t bytes[4];
  for (unsigned i = 0; i < 4; ++i) bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
  if (::pwrite(device_, bytes, width, static_cast<off_t>(config_.offset + offset)) !=
      static_cast<ssize_t>(width))
    throw Error(ErrorKind::Device,
                fmt::format("config write of {} at {:#x}: {}", bdf_, offset, errno_text()));
}

BarInfo VfioPciFunction::bar(unsigned index) { return index < 6 ? bars_[index] : BarInfo{}; }

Mmio &VfioPciFunction::map_bar(unsigned index) {
  if (closed_) throw Error(ErrorKind::Internal, fmt::format("{} is closed", id()));
  if (index >= 6 || !bars_[index].present || bars_[index].is_io)
    throw Error(ErrorKind::Device,
                fmt::format("BAR{} of {} is not a memory region VFIO exposes (not assigned by the "
                            "firmware/kernel, or I/O)",
                            index, bdf_));
  if (!regions_[index]) {
    const Region r = region(index);
    const std::string name = fmt::format("BAR{} of {}", index, bdf_);
    if (r.mappable)
      regions_[index] = std::make_unique<MappedMmio>(device_, r.offset, r.size, name);
    else
      regions_[index] = std::make_unique<RegionFileMmio>(device_, r.offset, r.size, name);
  }
  return *regions_[index];
}

void VfioPciFunction::close() {
  if (closed_) return;
  closed_ = true;
  for (auto &region : regions_) region.reset();
  for (int *fd : {&device_, &group_fd_, &container_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
  options_.lock.reset();
}

}  // namespace wavescope::hw
