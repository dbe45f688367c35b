#pragma once
// Native PCIe through VFIO with an IOMMU (transport.md A.9, the type1v2 sequence): the device is
// bound to vfio-pci, its IOMMU group attached to a fresh container, and BARs and config space are
// reached through the VFIO device's regions (mmap where the region allows it, pread/pwrite
// otherwise). No-IOMMU mode, which needs a system-wide unsafe switch, is not used.
//
// Like the sysfs transport it changes nothing unasked: another bound driver is refused unless
// `allow_unbind`; binding to vfio-pci (driver_override + drivers_probe) is what choosing VFIO
// means, and each write is announced through `log` first.

#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/device_lock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw {

// The two kernel entry points the transport uses, so tests can stand in for the kernel. Both
// follow the system calls: -1 and errno on failure.
class VfioKernel {
public:
  virtual ~VfioKernel() = default;
  virtual int open(const std::filesystem::path &path, int flags) = 0;
  virtual int ioctl(int fd, unsigned long request, std::uintptr_t argument) = 0;
};
std::shared_ptr<VfioKernel> linux_vfio_kernel();

struct VfioOptions {
  std::filesystem::path sysfs_root = "/sys";
  std::filesystem::path dev_root = "/dev";
  bool allow_unbind = false;  // unbind another driver (amdgpu) first
  std::function<void(std::string_view)> log;
  std::shared_ptr<DeviceLock> lock;
  std::shared_ptr<VfioKernel> kernel;  // default: linux_vfio_kernel()
};

class VfioPciFunction : public PciFunction {
public:
  VfioPciFunction(std::string bdf, VfioOptions options = {});
  ~VfioPciFunction() override;
  VfioPciFunction(const VfioPciFunction &) = delete;
  VfioPciFunction &operator=(const VfioPciFunction &) = delete;

  std::string id() const override { return "pci:" + bdf_; }
  TransportKind kind() const override { return TransportKind::NativeVfio; }
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  BarInfo bar(unsigned index) override;
  Mmio &map_bar(unsigned index) override;
  void close() override;

  const std::string &iommu_group() const { return group_; }
  const std::vector<std::string> &actions() const { return actions_; }

private:
  struct Region {
    std::uint64_t size = 0;
    std::uint64_t offset = 0;
    bool mappable = false;
  };
  void open_device();
  void bind_to_vfio(const std::filesystem::path &device);
  void attach_group();
  Region region(unsigned index);
  void announce(const std::filesystem::path &file, std::string_view text, std::string_view why);

  std::string bdf_;
  VfioOptions options_;
  std::string group_;
  int container_ = -1;
  int group_fd_ = -1;
  int device_ = -1;
  Region config_;
  std::array<BarInfo, 6> bars_{};
  std::array<std::unique_ptr<Mmio>, 6> regions_{};
  std::vector<std::string> actions_;
  bool closed_ = false;
};

}  // namespace wavescope::hw
