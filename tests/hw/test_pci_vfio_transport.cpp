// The VFIO transport (transport.md A.9, IOMMU type1v2) against a fake sysfs tree and a stand-in
// for the kernel's VFIO ioctls.

#include <catch2/catch.hpp>

#include <linux/vfio.h>

#include "support_transport/fake_sysfs.hpp"
#include "support_transport/fake_vfio_kernel.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/device/device_enumerator.hpp"
#include "wavescope/hw/pci/vfio_transport.hpp"

using namespace wavescope::hw;
using wavescope::Error;
using wavescope::ErrorKind;
using wavescope::testing::FakeSysfs;
using wavescope::testing::FakeVfioKernel;

namespace {

constexpr const char *kBdf = "0000:03:00.0";

struct VfioBench {
  FakeSysfs fs;
  std::shared_ptr<FakeVfioKernel> kernel = std::make_shared<FakeVfioKernel>();

  VfioBench() {
    fs.add_device(kBdf);
    fs.add_to_iommu_group(kBdf, "7");
    FakeSysfs::write(fs.device(kBdf) / "driver_override", "(null)\n");
    FakeSysfs::write(fs.root() / "bus" / "pci" / "drivers_probe", "");
    kernel->dev_root = fs.root() / "dev";
  }
  VfioOptions options() const {
    VfioOptions o;
    o.sysfs_root = fs.root();
    o.dev_root = fs.root() / "dev";
    o.kernel = kernel;
    return o;
  }
};

}  // namespace

TEST_CASE("vfio: an unbound device is handed to vfio-pci and attached in type1v2 order") {
  VfioBench b;
  VfioPciFunction gpu(kBdf, b.options());
  CHECK(gpu.kind() == TransportKind::NativeVfio);
  CHECK(gpu.iommu_group() == "7");
  CHECK(FakeSysfs::read(b.fs.device(kBdf) / "driver_override") == "vfio-pci");
  CHECK(FakeSysfs::read(b.fs.root() / "bus" / "pci" / "drivers_probe") == kBdf);
  REQUIRE(gpu.actions().size() == 2);
  CHECK(b.kernel->device_requested == kBdf);
  const std::vector<unsigned long> expected = {VFIO_GET_API_VERSION,  VFIO_CHECK_EXTENSION,
                                               VFIO_GROUP_GET_STATUS, VFIO_GROUP_SET_CONTAINER,
                                               VFIO_SET_IOMMU,        VFIO_GROUP_GET_DEVICE_FD,
                                               VFIO_DEVICE_GET_INFO};
  REQUIRE(b.kernel->calls.size() >= expected.size());
  CHECK(std::vector<unsigned long>(b.kernel->calls.begin(),
                                   b.kernel->calls.begin() + expected.size()) == expected);
}

TEST_CASE("vfio: config space and BAR5 go through the device's regions") {
  VfioBench b;
  VfioPciFunction gpu(kBdf, b.options());
  CHECK(gpu.config_read(0, 4) == 0x744C1002);
  gpu.config_write(0x04, 0x02, 2);
  CHECK(gpu.config_read(0x04, 2) == 0x02);
  CHECK(gpu.bar(5).size == FakeVfioKernel::kBar5Size);
  CHECK(gpu.bar(5).bus_address == 0xfc000000);
  auto &bar5 = gpu.map_bar(5);
  bar5.write32(0x5A3A0, 0xA1B2C3D4);
  CHECK(bar5.read32(0x5A3A0) == 0xA1B2C3D4);
  std::uint32_t raw = 0;
  REQUIRE(::pread(b.kernel->device_fd, &raw, 4, 0x5A3A0) == 4);
  CHECK(raw == 0xA1B2C3D4);
}

TEST_CASE("vfio: a region without mmap is accessed with 4-byte pread/pwrite") {
  VfioBench b;
  b.kernel->bar5_mappable = false;
  VfioPciFunction gpu(kBdf, b.options());
  auto &bar5 = gpu.map_bar(5);
  bar5.write_block(0x100, std::vector<std::uint32_t>{7, 8, 9});
  CHECK(bar5.read_block(0x100, 3) == std::vector<std::uint32_t>{7, 8, 9});
  CHECK(bar5.stats().operations() == 2);
  CHECK_THROWS_AS(bar5.read32(2), Error);
}

TEST_CASE("vfio: without the vfio container device the module is missing") {
  VfioBench b;
  b.kernel->container_present = false;
  CHECK_THROWS_WITH(VfioPciFunction(kBdf, b.options()),
                    Catch::Contains("vfio-pci not available") && Catch::Contains("modprobe"));
}

TEST_CASE("vfio: a host without type1v2 IOMMU is refused, never switched to no-IOMMU") {
  VfioBench b;
  b.kernel->type1v2 = false;
  CHECK_THROWS_WITH(VfioPciFunction(kBdf, b.options()),
                    Catch::Contains("no-IOMMU mode is not used"));
}

TEST_CASE("vfio: a group that is not viable names the devices still bound elsewhere") {
  VfioBench b;
  b.fs.add_sibling("0000:03:00.1");
  b.fs.add_to_iommu_group("0000:03:00.1", "7");
  b.fs.bind("0000:03:00.1", "snd_hda_intel");
  b.kernel->viable = false;
  try {
    VfioPciFunction gpu(kBdf, b.options());
    FAIL("attached a non-viable group");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::State);
    CHECK_THAT(e.what(), Catch::Contains("IOMMU group 7 contains devices not bound to vfio-pci: "
                                         "0000:03:00.1 (snd_hda_intel)"));
  }
}

TEST_CASE("vfio: a bound amdgpu is refused without permission to unbind") {
  VfioBench b;
  b.fs.bind(kBdf, "amdgpu");
  CHECK_THROWS_WITH(VfioPciFunction(kBdf, b.options()),
                    Catch::Contains("kernel driver amdgpu is bound to 0000:03:00.0"));
  CHECK(FakeSysfs::read(b.fs.device(kBdf) / "driver_override") == "(null)\n");
  auto options = b.options();
  options.allow_unbind = true;
  VfioPciFunction gpu(kBdf, options);
  CHECK(FakeSysfs::read(b.fs.root() / "bus/pci/drivers/amdgpu/unbind") == kBdf);
}

TEST_CASE("vfio: a device already on vfio-pci is used as it is") {
  VfioBench b;
  b.fs.bind(kBdf, "vfio-pci");
  VfioPciFunction gpu(kBdf, b.options());
  CHECK(gpu.actions().empty());
}

TEST_CASE("vfio: without an IOMMU group the IOMMU is off") {
  FakeSysfs fs;
  fs.add_device(kBdf);
  VfioOptions options;
  options.sysfs_root = fs.root();
  options.kernel = std::make_shared<FakeVfioKernel>();
  CHECK_THROWS_WITH(VfioPciFunction(kBdf, options), Catch::Contains("has no IOMMU group"));
  OpenOptions open;
  open.vfio = true;
  open.sysfs_root = fs.root();
  open.lock_directory = fs.root();
  DeviceCandidate candidate;
  candidate.kind = DeviceCandidateKind::PciCard;
  candidate.id = "pci:0000:03:00.0";
  candidate.bdf = kBdf;
  CHECK_THROWS_WITH(open_real_device(candidate, open), Catch::Contains("has no IOMMU group"));
}
