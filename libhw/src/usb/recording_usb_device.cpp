#include "wavescope/hw/usb/recording_usb_device.hpp"

#include <type_traits>

#include <fmt/format.h>

namespace wavescope::hw {
namespace {

std::string hex_bytes(const std::vector<std::uint8_t> &bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    out += fmt::format("{}{:02X}", i ? " " : "", bytes[i]);
  return out;
}

}  // namespace

std::string UsbTransferRecord::to_string() const {
  std::string line;
  switch (kind) {
  case UsbTransferKind::ControlOut:
  case UsbTransferKind::ControlIn:
    line = fmt::format("{} {:#04x}/{:#04x} wValue {:#06x} wIndex {} [{}]",
                       kind == UsbTransferKind::ControlOut ? "OUT" : "IN", setup.request_type,
                       setup.request, setup.value, setup.index, hex_bytes(data));
    break;
  case UsbTransferKind::BulkOut:
    line = fmt::format("bulk OUT {:#04x} [{}]", endpoint, hex_bytes(data));
    break;
  case UsbTransferKind::BulkIn:
    line = fmt::format("bulk IN {:#04x} {} -> [{}]", endpoint, requested, hex_bytes(data));
    break;
  }
  if (error) line += " FAILED: " + *error;
  return line;
}

template <typename F> auto RecordingUsbDevice::record(UsbTransferRecord entry, F &&transfer) {
  records_.push_back(std::move(entry));
  const std::size_t slot = records_.size() - 1;  // `transfer` may not append, but stay index-safe
  try {
    if constexpr (std::is_void_v<decltype(transfer())>) {
      transfer();
    } else {
      auto result = transfer();
      records_[slot].data = result;
      return result;
    }
  } catch (const std::exception &e) {
    records_[slot].error = e.what();
    throw;
  }
}

void RecordingUsbDevice::control_out(const UsbControlSetup &setup,
                                     std::span<const std::uint8_t> data, unsigned timeout_ms) {
  record({UsbTransferKind::ControlOut,
          setup,
          0,
          data.size(),
          {data.begin(), data.end()},
          timeout_ms,
          {}},
         [&] { device().control_out(setup, data, timeout_ms); });
}

std::vector<std::uint8_t> RecordingUsbDevice::control_in(const UsbControlSetup &setup,
                                                         std::size_t length, unsigned timeout_ms) {
  return record({UsbTransferKind::ControlIn, setup, 0, length, {}, timeout_ms, {}},
                [&] { return device().control_in(setup, length, timeout_ms); });
}

void RecordingUsbDevice::bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                                  unsigned timeout_ms) {
  record({UsbTransferKind::BulkOut,
          {},
          endpoint,
          data.size(),
          {data.begin(), data.end()},
          timeout_ms,
          {}},
         [&] { device().bulk_out(endpoint, data, timeout_ms); });
}

std::vector<std::uint8_t> RecordingUsbDevice::bulk_in(std::uint8_t endpoint, std::size_t length,
                                                      unsigned timeout_ms) {
  return record({UsbTransferKind::BulkIn, {}, endpoint, length, {}, timeout_ms, {}},
                [&] { return device().bulk_in(endpoint, length, timeout_ms); });
}

}  // namespace wavescope::hw
