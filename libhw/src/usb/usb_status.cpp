#include "wavescope/hw/usb/usb_status.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw {

std::string_view to_string(UsbStatus status) {
  switch (status) {
  case UsbStatus::Io: return "I/O error";
  case UsbStatus::Access: return "access denied";
  case UsbStatus::NoDevice: return "bridge disconnected";
  case UsbStatus::NotFound: return "interface or endpoint not found";
  case UsbStatus::Busy: return "interface busy";
  case UsbStatus::Timeout: return "timed out";
  case UsbStatus::Overflow: return "overflow (the device sent more than requested)";
  case UsbStatus::Pipe: return "endpoint stalled";
  case UsbStatus::Short: return "short transfer";
  case UsbStatus::Other: return "USB error";
  }
  return "USB error";
}

std::string_view remedy(UsbStatus status) {
  switch (status) {
  case UsbStatus::Io:
  case UsbStatus::Other:
    return "a USB link error; check the cable and port (read-only commands may be rerun; a write "
           "sequence was aborted and needs a resume)";
  case UsbStatus::Access:
    return "no permission to open the bridge: add a udev rule for its vendor id or run as root";
  case UsbStatus::NoDevice:
    return "the bridge disconnected or re-enumerated; reconnect it (nothing is retried blindly)";
  case UsbStatus::NotFound: return "the bridge does not run the custom firmware this tool needs";
  case UsbStatus::Busy:
    return "another process or a kernel driver (uas, usb-storage) holds the bridge; close other "
           "tools";
  case UsbStatus::Timeout:
    return "the bridge firmware stalled or the GPU is not answering; check the GPU's power";
  case UsbStatus::Overflow:
    return "protocol out of step; reconnect the bridge to reset the session";
  case UsbStatus::Pipe:
    return "the bridge refused the request; if it repeats, power-cycle the bridge";
  case UsbStatus::Short:
    return "the transfer moved fewer bytes than requested; the request may already have run on the "
           "device, so it is not retried";
  }
  return "";
}

void throw_usb_error(UsbStatus status, std::string_view what) {
  throw Error(status == UsbStatus::Timeout ? ErrorKind::Timeout : ErrorKind::Device,
              fmt::format("{}: {} — {}", what, to_string(status), remedy(status)));
}

}  // namespace wavescope::hw
