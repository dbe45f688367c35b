#pragma once
// A stand-in for the Linux VFIO ioctls: answers the container, group and device calls as the
// kernel would for one Navi31 function, with real memfd descriptors so pread/pwrite and mmap of
// the "device" work. Region layout: BAR5 (1 MiB) at offset 0, config space (4 KiB) at 1 MiB.

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <linux/vfio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wavescope/hw/pci/vfio_transport.hpp"

namespace wavescope::testing {

class FakeVfioKernel final : public hw::VfioKernel {
public:
  static constexpr std::uint64_t kBar5Size = 1u << 20;
  static constexpr std::uint64_t kConfigOffset = kBar5Size;

  std::filesystem::path dev_root;
  std::string group = "7";
  bool container_present = true;
  bool type1v2 = true;
  bool viable = true;
  bool bar5_mappable = true;
  std::vector<unsigned long> calls;  // every ioctl request, in order
  std::string device_requested;
  int device_fd = -1;  // the last device fd handed out (owned by the transport)

  int open(const std::filesystem::path &path, int /*flags*/) override {
    if ((path == dev_root / "vfio" / "vfio" && container_present) ||
        path == dev_root / "vfio" / group)
      return ::memfd_create("fake-vfio", MFD_CLOEXEC);
    errno = ENOENT;
    return -1;
  }

  int ioctl(int /*fd*/, unsigned long request, std::uintptr_t argument) override {
    calls.push_back(request);
    switch (request) {
    case VFIO_GET_API_VERSION: return VFIO_API_VERSION;
    case VFIO_CHECK_EXTENSION: return argument == VFIO_TYPE1v2_IOMMU && type1v2 ? 1 : 0;
    case VFIO_GROUP_GET_STATUS:
      reinterpret_cast<vfio_group_status *>(argument)->flags = viable ? VFIO_GROUP_FLAGS_VIABLE : 0;
      return 0;
    case VFIO_GROUP_SET_CONTAINER:
    case VFIO_SET_IOMMU: return 0;
    case VFIO_GROUP_GET_DEVICE_FD: {
      device_requested = reinterpret_cast<const char *>(argument);
      device_fd = ::memfd_create("fake-vfio-device", MFD_CLOEXEC);
      if (::ftruncate(device_fd, static_cast<off_t>(kConfigOffset + 4096)) != 0) return -1;
      const std::uint8_t ids[4] = {0x02, 0x10, 0x4C, 0x74};
      if (::pwrite(device_fd, ids, 4, static_cast<off_t>(kConfigOffset)) != 4) return -1;
      return device_fd;
    }
    case VFIO_DEVICE_GET_INFO: {
      auto *info = reinterpret_cast<vfio_device_info *>(argument);
      info->flags = VFIO_DEVICE_FLAGS_PCI;
      info->num_regions = VFIO_PCI_NUM_REGIONS;
      return 0;
    }
    case VFIO_DEVICE_GET_REGION_INFO: {
      auto *info = reinterpret_cast<vfio_region_info *>(argument);
      info->size = 0;
      info->offset = 0;
      info->flags = 0;
      if (info->index == 5) {
        info->size = kBar5Size;
        info->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE |
                      (bar5_mappable ? VFIO_REGION_INFO_FLAG_MMAP : 0);
      } else if (info->index == VFIO_PCI_CONFIG_REGION_INDEX) {
        info->size = 4096;
        info->offset = kConfigOffset;
        info->flags = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
      }
      return 0;
    }
    default: errno = ENOTTY; return -1;
    }
  }
};

}  // namespace wavescope::testing
