#pragma once
// A UsbDevice decorator that records every transfer (setup, data, outcome) and passes it on:
// golden-trace tests compare the log byte for byte with transport.md's worked examples, and a real
// recovery can keep it as a post-mortem log.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/hw/transport/usb_device.hpp"

namespace wavescope::hw {

struct UsbTransferRecord {
  UsbTransferKind kind = UsbTransferKind::ControlOut;
  UsbControlSetup setup;           // control transfers only
  std::uint8_t endpoint = 0;       // bulk transfers only
  std::size_t requested = 0;       // bytes asked for (IN) or sent (OUT)
  std::vector<std::uint8_t> data;  // bytes sent (OUT) or received (IN)
  unsigned timeout_ms = 0;
  std::optional<std::string> error;  // the failure message, when it failed

  // One line: "OUT 0x40/0xF0 wValue 0x0F20 wIndex 2 [A4 A3 05 10 ...]" / "bulk IN 0x81 4 -> [..]".
  std::string to_string() const;
};

class RecordingUsbDevice final : public UsbDevice {
public:
  explicit RecordingUsbDevice(std::unique_ptr<UsbDevice> inner) : inner_(std::move(inner)) {}
  // Records transfers to a device owned elsewhere.
  explicit RecordingUsbDevice(UsbDevice &inner) : borrowed_(&inner) {}

  std::string description() const override { return device().description(); }
  void control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                   unsigned timeout_ms) override;
  std::vector<std::uint8_t> control_in(const UsbControlSetup &setup, std::size_t length,
                                       unsigned timeout_ms) override;
  void bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                unsigned timeout_ms) override;
  std::vector<std::uint8_t> bulk_in(std::uint8_t endpoint, std::size_t length,
                                    unsigned timeout_ms) override;

  const std::vector<UsbTransferRecord> &records() const { return records_; }
  void clear() { records_.clear(); }

private:
  UsbDevice &device() const { return inner_ ? *inner_ : *borrowed_; }
  template <typename F> auto record(UsbTransferRecord entry, F &&transfer);

  std::unique_ptr<UsbDevice> inner_;
  UsbDevice *borrowed_ = nullptr;
  std::vector<UsbTransferRecord> records_;
};

}  // namespace wavescope::hw
