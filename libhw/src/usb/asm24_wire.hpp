#pragma once
// The USB request layer of the ASM24 transport: encodes XDATA, single-TLP and streaming requests
// (transport.md B.4) on a UsbDevice, counts every USB transfer, and turns failures into errors
// that name the operation, the request and the USB failure. Private to libhw.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wavescope/hw/usb/asm24_transport.hpp"

namespace wavescope::hw {

// What the caller was doing, formatted only when something fails ("read32 of BAR5+0x5a3a4").
using OperationName = std::function<std::string()>;

class Asm24Transport::Wire {
public:
  Wire(std::unique_ptr<UsbDevice> usb, Clock &clock, const Asm24Options &options);

  std::vector<std::uint8_t> xdata_read(std::uint16_t address, std::size_t length,
                                       const OperationName &op);
  void xdata_write(std::uint16_t address, std::uint8_t value, const OperationName &op);
  void pcie_power(bool on, const OperationName &op);
  // One TLP of 1-4 bytes inside a dword. Returns the read data (shifted down and masked) for
  // non-posted reads, 0 otherwise. Resent up to `retries` times while the bridge reports a
  // non-zero return status (it did not execute the request).
  std::uint32_t single_tlp(std::uint8_t fmt_type, std::uint64_t address, unsigned size,
                           std::uint32_t value, unsigned retries, const OperationName &op);
  std::vector<std::uint32_t> stream_read(std::uint64_t address, std::size_t dwords,
                                         const OperationName &op);
  void stream_write(std::uint64_t address, std::span<const std::uint32_t> values,
                    const OperationName &op);

  std::uint64_t usb_requests() const { return usb_requests_; }
  Clock &clock() { return clock_; }
  void close() { usb_.reset(); }
  bool closed() const { return !usb_; }

private:
  UsbDevice &device(const OperationName &op);
  void control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                   unsigned timeout_ms, const OperationName &op, const OperationName &request);
  std::vector<std::uint8_t> control_in(const UsbControlSetup &setup, std::size_t length,
                                       unsigned timeout_ms, const OperationName &op,
                                       const OperationName &request);
  void bulk_out(std::span<const std::uint8_t> data, const OperationName &op,
                const OperationName &request);
  std::vector<std::uint8_t> bulk_in(std::size_t length, unsigned timeout_ms,
                                    const OperationName &op, const OperationName &request);

  std::unique_ptr<UsbDevice> usb_;
  Clock &clock_;
  const Asm24Options &options_;
  std::uint64_t usb_requests_ = 0;
};

}  // namespace wavescope::hw
