#pragma once
// USB transfer failures and the user-facing sentence for each (transport.md B.8). The libusb
// backend and the simulated bridge report failures through the same function, so a test against
// the simulator sees exactly the text a user of real hardware would.

#include <string>
#include <string_view>

namespace wavescope::hw {

enum class UsbStatus {
  Io,        // LIBUSB_ERROR_IO / transfer ERROR
  Access,    // no permission on the usbfs node
  NoDevice,  // unplugged or re-enumerated
  NotFound,  // interface/endpoint missing
  Busy,      // claimed by another process or kernel driver
  Timeout,
  Overflow,  // device sent more than requested
  Pipe,      // endpoint stalled
  Short,     // fewer bytes than requested
  Other,
};

std::string_view to_string(UsbStatus status);
// What it usually means and what to do about it.
std::string_view remedy(UsbStatus status);

// Throws wavescope::Error: kind Timeout for Timeout, Device otherwise. `what` names the transfer
// and device ("usb:2-5: bulk IN on 0x81, 4 bytes").
[[noreturn]] void throw_usb_error(UsbStatus status, std::string_view what);

}  // namespace wavescope::hw
