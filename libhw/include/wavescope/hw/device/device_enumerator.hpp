#pragma once
// Real devices on this host (transport.md A.1, B.1, C.2): ASM24 USB bridges first (0x3801:0x0001,
// then 0xADD1:0x0001), then native PCI Navi31 cards sorted by BDF. Listing needs no permission and
// returns an empty list when there is nothing (or no USB/PCI at all). Opening takes the device
// lock and brings the transport up as the options allow.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw {

enum class DeviceCandidateKind { UsbBridge, PciCard };

struct DeviceCandidate {
  DeviceCandidateKind kind = DeviceCandidateKind::UsbBridge;
  std::string id;           // "usb:N" (index among the bridges) or "pci:<BDF>"
  std::string description;  // e.g. "ASM24 USB bridge 3801:0001 at usb:2-5"
  std::string driver;       // bound kernel driver of a PCI card ("" if none)
  std::string location;     // "usb:<bus>-<address>" or the sysfs directory
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::uint8_t usb_bus = 0;
  std::uint8_t usb_address = 0;
  std::string bdf;
};

struct EnumerateOptions {
  bool usb = true;
  bool pci = true;
  std::filesystem::path sysfs_root = "/sys";
};

std::vector<DeviceCandidate> enumerate_real_devices(const EnumerateOptions &options = {});

struct OpenOptions {
  bool allow_unbind = false;            // PCI: unbind a bound kernel driver
  bool allow_remove_siblings = false;   // PCI: hot-remove the HDMI/DP audio function
  bool minimal_bringup = false;         // USB: BAR5 only, no bus mastering, no BAR0 resize
  bool vfio = false;                    // PCI through VFIO (IOMMU type1v2) instead of sysfs
  bool require_custom_firmware = true;  // USB: product string check
  std::filesystem::path sysfs_root = "/sys";
  std::filesystem::path lock_directory;       // default: the system temp directory
  Clock *clock = nullptr;                     // default: a SystemClock
  std::function<void(std::string_view)> log;  // what opening touches
};

// Throws wavescope::Error naming the device when it cannot be opened.
std::unique_ptr<PciFunction> open_real_device(const DeviceCandidate &candidate,
                                              const OpenOptions &options = {});

}  // namespace wavescope::hw
