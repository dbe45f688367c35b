#include "usb/asm24_wire.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/usb/asm24_protocol.hpp"

namespace wavescope::hw {
namespace {

using namespace asm24;

template <typename F>
auto naming_failures(const OperationName &op, const OperationName &request, F &&transfer) {
  try {
    return transfer();
  } catch (const Error &e) {
    throw Error(e.kind(), fmt::format("{}: {} failed: {}", op(), request(), e.what()));
  }
}

}  // namespace

Asm24Transport::Wire::Wire(std::unique_ptr<UsbDevice> usb, Clock &clock,
                           const Asm24Options &options)
    : usb_(std::move(usb)), clock_(clock), options_(options) {
  if (!usb_) throw Error(ErrorKind::Internal, "Asm24Transport needs a USB device");
}

UsbDevice &Asm24Transport::Wire::device(const OperationName &op) {
  if (!usb_) throw Error(ErrorKind::Internal, fmt::format("{}: {} is closed", op(), options_.id));
  return *usb_;
}

void Asm24Transport::Wire::control_out(const UsbControlSetup &setup,
                                       std::span<const std::uint8_t> data, unsigned timeout_ms,
                                       const OperationName &op, const OperationName &request) {
  auto &usb = device(op);
  ++usb_requests_;
  naming_failures(op, request, [&] { usb.control_out(setup, data, timeout_ms); });
}

std::vector<std::uint8_t> Asm24Transport::Wire::control_in(const UsbControlSetup &setup,
                                                           std::size_t length, unsigned timeout_ms,
                                                           const OperationName &op,
                                                           const OperationName &request) {
  auto &usb = device(op);
  ++usb_requests_;
  auto reply =
      naming_failures(op, request, [&] { return usb.control_in(setup, length, timeout_ms); });
  if (reply.size() != length)
    throw Error(ErrorKind::Device, fmt::format("{}: {} returned {} of {} bytes (short transfer)",
                                               op(), request(), reply.size(), length));
  return reply;
}

void Asm24Transport::Wire::bulk_out(std::span<const std::uint8_t> data, const OperationName &op,
                                    const OperationName &request) {
  auto &usb = device(op);
  ++usb_requests_;
  naming_failures(op, request, [&] { usb.bulk_out(kBulkOut, data, kBulkOutTimeoutMs); });
}

std::vector<std::uint8_t> Asm24Transport::Wire::bulk_in(std::size_t length, unsigned timeout_ms,
                                                        const OperationName &op,
                                                        const OperationName &request) {
  auto &usb = device(op);
  ++usb_requests_;
  auto data =
      naming_failures(op, request, [&] { return usb.bulk_in(kBulkIn, length, timeout_ms); });
  if (data.size() != length)
    throw Error(ErrorKind::Device,
                fmt::format("{}: {} returned {} of {} bytes (short transfer) — the PCIe reads have "
                            "probably happened already (a FIFO such as ROM_DATA has moved on), so "
                            "the read is not retried; restart it from a known address",
                            op(), request(), data.size(), length));
  return data;
}

std::vector<std::uint8_t> Asm24Transport::Wire::xdata_read(std::uint16_t address,
                                                           std::size_t length,
                                                           const OperationName &op) {
  std::vector<std::uint8_t> out;
  out.reserve(length);
  while (out.size() < length) {
    const std::size_t chunk = std::min(kMaxXdataRead, length - out.size());
    const auto at = static_cast<std::uint16_t>(address + out.size());
    const auto bytes =
        control_in({kRequestTypeIn, kReadXdata, at, 0}, chunk, kControlTimeoutMs, op, [=] {
          return fmt::format("XDATA read (0xE4) of {} bytes at {:#06x}", chunk, at);
        });
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

void Asm24Transport::Wire::xdata_write(std::uint16_t address, std::uint8_t value,
                                       const OperationName &op) {
  control_out({kRequestTypeOut, kWriteXdata, address, value}, {}, kControlTimeoutMs, op, [=] {
    return fmt::format("XDATA write (0xE5) of {:#04x} at {:#06x}", value, address);
  });
}

void Asm24Transport::Wire::pcie_power(bool on, const OperationName &op) {
  control_out({kRequestTypeOut, kPciePower, static_cast<std::uint16_t>(on ? 1 : 0), 0}, {},
              kPowerTimeoutMs, op,
              [=] { return fmt::format("PCIe power {} (0xF3)", on ? "on" : "off"); });
}

std::uint32_t Asm24Transport::Wire::single_tlp(std::uint8_t fmt_type, std::uint64_t address,
                                               unsigned size, std::uint32_t value, unsigned retries,
                                               const OperationName &op) {
  const unsigned lane = address & 3;
  const std::uint8_t enables = byte_enables(static_cast<std::uint32_t>(address), size);
  const UsbControlSetup setup{kRequestTypeOut, kPcieRequest,
                              static_cast<std::uint16_t>(fmt_type | enables << 8), kModeSingleTlp};
  const auto payload = pcie_request_payload(address & ~3ull, value << (8 * lane));
  const OperationName request = [=] {
    return fmt::format("0xF0 single TLP (fmt {:#04x}, byte enables {:#x}) at {:#x}", fmt_type,
                       enables, address & ~3ull);
  };
  for (unsigned attempt = 0;; ++attempt) {
    control_out(setup, payload, kPcieRequestTimeoutMs, op, request);
    if (is_posted(fmt_type)) return 0;
    const auto reply = control_in({kRequestTypeIn, kPcieRequest, 0, 0}, 8, kPcieRequestTimeoutMs,
                                  op, [] { return std::string("0xF0 completion read"); });
    const auto completion = parse_completion(reply);
    if (completion.return_status != 0) {
      if (attempt < retries) {
        clock_.sleep(options_.tlp_retry_delay);
        continue;
      }
      throw Error(ErrorKind::Device,
                  fmt::format("{}: {}: the bridge reported return status {:#04x} on {} attempt{} "
                              "(request not executed)",
                              op(), request(), completion.return_status, attempt + 1,
                              attempt ? "s" : ""));
    }
    if (completion.raw_status != 0)
      throw Error(ErrorKind::Device,
                  fmt::format("{}: {}: completion status {:#05b}, {}", op(), request(),
                              completion.raw_status, describe(completion.status)));
    const std::uint32_t mask = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
    return (completion.data >> (8 * lane)) & mask;
  }
}

std::vector<std::uint32_t> Asm24Transport::Wire::stream_read(std::uint64_t address,
                                                             std::size_t dwords,
                                                             const OperationName &op) {
  std::vector<std::uint32_t> out;
  out.reserve(dwords);
  while (out.size() < dwords) {
    const std::size_t chunk = std::min(kMaxStreamBytes / 4, dwords - out.size());
    const std::uint64_t at = address + 4 * out.size();
    control_out({kRequestTypeOut, kPcieRequest, 0x0F00 | kMemoryRead64, kModeStreamRead},
                pcie_request_payload(at, static_cast<std::uint32_t>(chunk)), kPcieRequestTimeoutMs,
                op, [=] {
                  return fmt::format("0xF0 streaming read request (mode 2, {} dwords at {:#x})",
                                     chunk, at);
                });
    const auto bytes = bulk_in(chunk * 4, kStreamReadTimeoutMs, op, [=] {
      return fmt::format("bulk IN of {} bytes on 0x81", chunk * 4);
    });
    for (std::size_t i = 0; i < bytes.size(); i += 4)
      out.push_back(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                    std::uint32_t(bytes[i + 3]) << 24);
  }
  return out;
}

void Asm24Transport::Wire::stream_write(std::uint64_t address,
                                        std::span<const std::uint32_t> values,
                                        const OperationName &op) {
  std::size_t done = 0;
  std::vector<std::uint8_t> bytes;
  while (done < values.size()) {
    const std::size_t chunk = std::min(kMaxStreamBytes / 4, values.size() - done);
    const std::uint64_t at = address + 4 * done;
    control_out({kRequestTypeOut, kPcieRequest, 0x0F00 | kMemoryWrite64, kModeStreamWrite},
                pcie_request_payload(at, static_cast<std::uint32_t>(chunk)), kPcieRequestTimeoutMs,
                op, [=] {
                  return fmt::format("0xF0 streaming write request (mode 1, {} dwords at {:#x})",
                                     chunk, at);
                });
    bytes.resize(chunk * 4);
    for (std::size_t i = 0; i < chunk; ++i)
      for (int b = 0; b < 4; ++b)
        bytes[4 * i + b] = static_cast<std::uint8_t>(values[done + i] >> (8 * b));
    const std::size_t length = bytes.size();
    bulk_out(bytes, op, [=] { return fmt::format("bulk OUT of {} bytes on 0x02", length); });
    done += chunk;
  }
}

}  // namespace wavescope::hw
