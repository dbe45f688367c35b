#include "wavescope/hw/device/device_enumerator.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/pci/sysfs_transport.hpp"
#include "wavescope/hw/pci/vfio_transport.hpp"
#include "wavescope/hw/transport/device_lock.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"
#include "wavescope/hw/usb/libusb_device.hpp"

namespace wavescope::hw {

std::vector<DeviceCandidate> enumerate_real_devices(const EnumerateOptions &options) {
  std::vector<DeviceCandidate> out;
  if (options.usb) {
    std::size_t index = 0;
    for (const auto &bridge : list_asm24_bridges()) {
      DeviceCandidate c;
      c.kind = DeviceCandidateKind::UsbBridge;
      c.id = fmt::format("usb:{}", index++);
      c.location = bridge.label();
      c.description = fmt::format("ASM24 USB-to-PCIe bridge {:04x}:{:04x} at {}", bridge.vendor_id,
                                  bridge.product_id, c.location);
      c.vendor_id = bridge.vendor_id;
      c.device_id = bridge.product_id;
      c.usb_bus = bridge.bus;
      c.usb_address = bridge.address;
      out.push_back(std::move(c));
    }
  }
  if (options.pci) {
    for (const auto &card : list_navi31_devices(options.sysfs_root)) {
      DeviceCandidate c;
      c.kind = DeviceCandidateKind::PciCard;
      c.id = "pci:" + card.bdf;
      c.bdf = card.bdf;
      c.location = (options.sysfs_root / "bus" / "pci" / "devices" / card.bdf).string();
      c.driver = card.driver.value_or("");
      c.description = fmt::format("Navi31 {:04x}:{:04x} at {}{}", card.vendor_id, card.device_id,
                                  card.bdf, card.driver ? " (driver " + *card.driver + ")" : "");
      c.vendor_id = card.vendor_id;
      c.device_id = card.device_id;
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::unique_ptr<PciFunction> open_real_device(const DeviceCandidate &candidate,
                                              const OpenOptions &options) {
  static SystemClock system_clock;
  Clock &clock = options.clock ? *options.clock : system_clock;
  if (candidate.kind == DeviceCandidateKind::UsbBridge) {
    const UsbBridgeInfo bridge{candidate.usb_bus, candidate.usb_address, candidate.vendor_id,
                               candidate.device_id};
    auto lock = std::make_shared<DeviceLock>(bridge.label(), options.lock_directory);
    LibusbOpenOptions usb_options;
    usb_options.require_custom_firmware = options.require_custom_firmware;
    usb_options.log = options.log;
    Asm24Options asm24;
    asm24.id = bridge.label();
    asm24.minimal_bringup = options.minimal_bringup;
    asm24.log = options.log;
    asm24.lock = std::move(lock);
    return std::make_unique<Asm24Transport>(LibusbDevice::open(bridge, usb_options), clock,
                                            std::move(asm24));
  }
  if (options.vfio) {
    VfioOptions vfio;
    vfio.sysfs_root = options.sysfs_root;
    vfio.allow_unbind = options.allow_unbind;
    vfio.log = options.log;
    vfio.lock = std::make_shared<DeviceLock>(candidate.id, options.lock_directory);
    return std::make_unique<VfioPciFunction>(candidate.bdf, std::move(vfio));
  }
  SysfsOptions sysfs;
  sysfs.sysfs_root = options.sysfs_root;
  sysfs.allow_unbind = options.allow_unbind;
  sysfs.allow_remove_siblings = options.allow_remove_siblings;
  sysfs.log = options.log;
  sysfs.lock = std::make_shared<DeviceLock>(candidate.id, options.lock_directory);
  return std::make_unique<SysfsPciFunction>(candidate.bdf, std::move(sysfs));
}

}  // namespace wavescope::hw
