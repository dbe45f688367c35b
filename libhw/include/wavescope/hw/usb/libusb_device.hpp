#pragma once
// The libusb-1.0 backend of UsbDevice for ASM24 bridges with the custom firmware (transport.md
// B.1, B.2, B.8): enumeration by USB id (0x3801:0x0001 first, then 0xADD1:0x0001), the open
// sequence (product string check, kernel-driver detach, configuration 1, interface 0, alt 0) and
// transfers whose failures carry the B.8 sentence and remedy.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/usb_device.hpp"
#include "wavescope/hw/usb/usb_status.hpp"

namespace wavescope::hw {

struct UsbBridgeInfo {
  std::uint8_t bus = 0;
  std::uint8_t address = 0;
  std::uint16_t vendor_id = 0;
  std::uint16_t product_id = 0;
  std::string label() const;  // "usb:<bus>-<address>"
};

// Bridges present on this host, 0x3801:0x0001 before 0xADD1:0x0001, each group by bus and
// address. Empty (never an error) when libusb cannot start or nothing is attached; reading device
// descriptors needs no permission.
std::vector<UsbBridgeInfo> list_asm24_bridges();

struct LibusbOpenOptions {
  // The iProduct string must start with "custom" (or "AS2462"): stock firmware speaks another
  // protocol (B.5) and would misread our requests.
  bool require_custom_firmware = true;
  std::function<void(std::string_view)> log;  // told about kernel-driver detach and reset
};

class LibusbDevice final : public UsbDevice {
public:
  // Opens the bridge at bus/address. Throws wavescope::Error (Device) with the B.8 remedy.
  static std::unique_ptr<LibusbDevice> open(const UsbBridgeInfo &bridge,
                                            const LibusbOpenOptions &options = {});
  ~LibusbDevice() override;
  LibusbDevice(const LibusbDevice &) = delete;
  LibusbDevice &operator=(const LibusbDevice &) = delete;

  std::string description() const override;
  void control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                   unsigned timeout_ms) override;
  std::vector<std::uint8_t> control_in(const UsbControlSetup &setup, std::size_t length,
                                       unsigned timeout_ms) override;
  void bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                unsigned timeout_ms) override;
  std::vector<std::uint8_t> bulk_in(std::uint8_t endpoint, std::size_t length,
                                    unsigned timeout_ms) override;

  const std::string &product() const { return product_; }

private:
  struct Handle;
  explicit LibusbDevice(std::unique_ptr<Handle> handle, UsbBridgeInfo info, std::string product);

  std::unique_ptr<Handle> handle_;
  UsbBridgeInfo info_;
  std::string product_;
};

// libusb's negative error codes as UsbStatus.
UsbStatus usb_status_from_libusb(int code);

}  // namespace wavescope::hw
