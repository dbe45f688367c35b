#pragma once
// The few USB operations the ASM24 transport needs (transport.md C.4 point 2). Production binds
// it to libusb; the simulator binds it to a simulated ASM24 bridge in front of a board model, so
// the real protocol code runs unchanged against both.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wavescope::hw {

enum class UsbTransferKind { ControlOut, ControlIn, BulkOut, BulkIn };
std::string_view to_string(UsbTransferKind kind);

struct UsbControlSetup {
  std::uint8_t request_type = 0;  // bmRequestType
  std::uint8_t request = 0;       // bRequest
  std::uint16_t value = 0;        // wValue
  std::uint16_t index = 0;        // wIndex
};

class UsbDevice {
public:
  virtual ~UsbDevice() = default;
  // Human identity for messages, e.g. "usb:2-5 (ADD1:0001)".
  virtual std::string description() const = 0;
  // Control transfers; timeouts in milliseconds. Failures throw wavescope::Error (Device/Timeout)
  // naming the request.
  virtual void control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                           unsigned timeout_ms) = 0;
  virtual std::vector<std::uint8_t> control_in(const UsbControlSetup &setup, std::size_t length,
                                               unsigned timeout_ms) = 0;
  // Bulk transfers on an endpoint address (0x02 OUT, 0x81 IN, ...).
  virtual void bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                        unsigned timeout_ms) = 0;
  virtual std::vector<std::uint8_t> bulk_in(std::uint8_t endpoint, std::size_t length,
                                            unsigned timeout_ms) = 0;
};

}  // namespace wavescope::hw
