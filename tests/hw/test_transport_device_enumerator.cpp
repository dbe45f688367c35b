// Real-device enumeration: nothing present, a fake sysfs with Navi31 cards, and opening through it.

#include <catch2/catch.hpp>

#include "support_transport/fake_sysfs.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/device/device_enumerator.hpp"
#include "wavescope/hw/pci/sysfs_transport.hpp"
#include "wavescope/hw/usb/libusb_device.hpp"

using namespace wavescope::hw;
using wavescope::testing::FakeSysfs;

TEST_CASE("enumeration with no PCI sysfs and no bridges returns an empty list") {
  FakeSysfs fs;
  EnumerateOptions options;
  options.usb = false;  // this host's USB bus is not ours to rely on
  options.sysfs_root = fs.root() / "missing";
  CHECK(enumerate_real_devices(options).empty());
}

TEST_CASE("USB bridge listing never throws and lists only ASM24 ids, 0x3801 first") {
  std::vector<UsbBridgeInfo> bridges;
  REQUIRE_NOTHROW(bridges = list_asm24_bridges());
  bool seen_tiny = false;
  for (const auto &b : bridges) {
    CHECK(b.product_id == 0x0001);
    CHECK((b.vendor_id == 0x3801 || b.vendor_id == 0xADD1));
    if (b.vendor_id == 0xADD1) seen_tiny = true;
    if (b.vendor_id == 0x3801) CHECK_FALSE(seen_tiny);
  }
}

TEST_CASE("opening a USB bridge that is not there names it") {
  UsbBridgeInfo nowhere{250, 127, 0xADD1, 0x0001};
  CHECK(nowhere.label() == "usb:250-127");
  CHECK_THROWS_AS(LibusbDevice::open(nowhere), wavescope::Error);
}

TEST_CASE("libusb error codes map to the B.8 failure classes") {
  CHECK(usb_status_from_libusb(-3) == UsbStatus::Access);
  CHECK(usb_status_from_libusb(-4) == UsbStatus::NoDevice);
  CHECK(usb_status_from_libusb(-7) == UsbStatus::Timeout);
  CHECK(usb_status_from_libusb(-9) == UsbStatus::Pipe);
  CHECK(usb_status_from_libusb(-99) == UsbStatus::Other);
  CHECK_THROWS_WITH(throw_usb_error(UsbStatus::Access, "usb:1-2: open"),
                    Catch::Contains("udev rule"));
}

TEST_CASE("PCI Navi31 cards are listed after USB, by BDF, with their drivers") {
  FakeSysfs fs;
  fs.add_device("0000:0b:00.0");
  fs.add_device("0000:03:00.0");
  fs.bind("0000:0b:00.0", "amdgpu");
  fs.add_device("0000:01:00.0", 0x1002, 0x164E, 0);  // an iGPU: not listed
  EnumerateOptions options;
  options.usb = false;
  options.sysfs_root = fs.root();
  const auto devices = enumerate_real_devices(options);
  REQUIRE(devices.size() == 2);
  CHECK(devices[0].id == "pci:0000:03:00.0");
  CHECK(devices[0].kind == DeviceCandidateKind::PciCard);
  CHECK(devices[0].driver.empty());
  CHECK(devices[1].id == "pci:0000:0b:00.0");
  CHECK(devices[1].driver == "amdgpu");
  CHECK_THAT(devices[1].description, Catch::Contains("driver amdgpu"));
}

TEST_CASE("opening a PCI candidate takes the device lock and refuses a bound driver by default") {
  FakeSysfs fs;
  fs.add_device("0000:03:00.0");
  fs.add_device("0000:0b:00.0");
  fs.bind("0000:0b:00.0", "amdgpu");
  EnumerateOptions list;
  list.usb = false;
  list.sysfs_root = fs.root();
  const auto devices = enumerate_real_devices(list);
  OpenOptions options;
  options.sysfs_root = fs.root();
  options.lock_directory = fs.root();
  auto gpu = open_real_device(devices[0], options);
  CHECK(gpu->id() == "pci:0000:03:00.0");
  CHECK(gpu->kind() == TransportKind::NativeSysfs);
  CHECK_THROWS_WITH(open_real_device(devices[0], options),
                    Catch::Contains("in use by another process"));
  gpu->close();
  CHECK_NOTHROW(open_real_device(devices[0], options));
  CHECK_THROWS_WITH(open_real_device(devices[1], options),
                    Catch::Contains("kernel driver amdgpu is bound"));
}
