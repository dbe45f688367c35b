#include "wavescope/hw/usb/libusb_device.hpp"

#include <algorithm>
#include <tuple>

#include <libusb.h>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/usb/asm24_protocol.hpp"

namespace wavescope::hw {
namespace {

struct ContextDeleter {
  void operator()(libusb_context *context) const { libusb_exit(context); }
};
using Context = std::unique_ptr<libusb_context, ContextDeleter>;

Context make_context() {
  libusb_context *context = nullptr;
  if (libusb_init(&context) != 0) return nullptr;
  return Context(context);
}

int rank(std::uint16_t vendor) { return vendor == asm24::kVendorNew ? 0 : 1; }

std::string libusb_text(int code) {
  return fmt::format("{} ({})", libusb_strerror(static_cast<libusb_error>(code)),
                     libusb_error_name(code));
}

}  // namespace

std::string UsbBridgeInfo::label() const { return fmt::format("usb:{}-{}", bus, address); }

UsbStatus usb_status_from_libusb(int code) {
  switch (code) {
  case LIBUSB_ERROR_IO: return UsbStatus::Io;
  case LIBUSB_ERROR_ACCESS: return UsbStatus::Access;
  case LIBUSB_ERROR_NO_DEVICE: return UsbStatus::NoDevice;
  case LIBUSB_ERROR_NOT_FOUND: return UsbStatus::NotFound;
  case LIBUSB_ERROR_BUSY: return UsbStatus::Busy;
  case LIBUSB_ERROR_TIMEOUT: return UsbStatus::Timeout;
  case LIBUSB_ERROR_OVERFLOW: return UsbStatus::Overflow;
  case LIBUSB_ERROR_PIPE: return UsbStatus::Pipe;
  default: return UsbStatus::Other;
  }
}

std::vector<UsbBridgeInfo> list_asm24_bridges() {
  std::vector<UsbBridgeInfo> out;
  const Context context = make_context();
  if (!context) return out;
  libusb_device **list = nullptr;
  const ssize_t count = libusb_get_device_list(context.get(), &list);
  for (ssize_t i = 0; i < count; ++i) {
    libusb_device_descriptor descriptor{};
    if (libusb_get_device_descriptor(list[i], &descriptor) != 0) continue;
    const bool known =
        (descriptor.idVendor == asm24::kVendorNew || descriptor.idVendor == asm24::kVendorTiny) &&
        descriptor.idProduct == asm24::kProduct;
    if (known)
      out.push_back({libusb_get_bus_number(list[i]), libusb_get_device_address(list[i]),
                     descriptor.idVendor, descriptor.idProduct});
  }
  if (count >= 0) libusb_free_device_list(list, 1);
  std::sort(out.begin(), out.end(), [](const UsbBridgeInfo &a, const UsbBridgeInfo &b) {
    return std::tuple(rank(a.vendor_id), a.bus, a.address) <
           std::tuple(rank(b.vendor_id), b.bus, b.address);
  });
  return out;
}

struct LibusbDevice::Handle {
  Context context;
  libusb_device_handle *device = nullptr;
  bool claimed = false;
  ~Handle() {
    if (claimed) libusb_release_interface(device, 0);
    if (device) libusb_close(device);
  }
};

std::unique_ptr<LibusbDevice> LibusbDevice::open(const UsbBridgeInfo &bridge,
                                                 const LibusbOpenOptions &options) {
  const std::string label = bridge.label();
  auto handle = std::make_unique<Handle>();
  handle->context = make_context();
  if (!handle->context)
    throw Error(ErrorKind::Device,
                fmt::format("{}: libusb could not start (no USB on this host?)", label));
  const auto fail = [&](int code, std::string_view step) {
    throw_usb_error(usb_status_from_libusb(code),
                    fmt::format("{}: {}: {}", label, step, libusb_text(code)));
  };

  libusb_device **list = nullptr;
  const ssize_t count = libusb_get_device_list(handle->context.get(), &list);
  libusb_device *found = nullptr;
  for (ssize_t i = 0; i < count && !found; ++i)
    if (libusb_get_bus_number(list[i]) == bridge.bus &&
        libusb_get_device_address(list[i]) == bridge.address)
      found = libusb_ref_device(list[i]);
  if (count >= 0) libusb_free_device_list(list, 1);
  if (!found)
    throw Error(
        ErrorKind::Device,
        fmt::format("{}: no USB device at that bus and address (unplugged or re-enumerated)",
                    label));
  libusb_device_descriptor descriptor{};
  libusb_get_device_descriptor(found, &descriptor);
  const int opened = libusb_open(found, &handle->device);
  libusb_unref_device(found);
  if (opened != 0) fail(opened, "open");

  std::string product;
  if (descriptor.iProduct) {
    unsigned char text[256] = {};
    const int n =
        libusb_get_string_descriptor_ascii(handle->device, descriptor.iProduct, text, sizeof text);
    if (n > 0) product.assign(reinterpret_cast<const char *>(text), static_cast<std::size_t>(n));
  }
  if (options.require_custom_firmware && product.rfind("custom", 0) != 0 &&
      product.rfind("AS2462", 0) != 0)
    throw Error(
        ErrorKind::Device,
        fmt::format("{} ({:04x}:{:04x}) reports product '{}': not the custom bridge firmware "
                    "this tool speaks (its product string starts with 'custom')",
                    label, descriptor.idVendor, descriptor.idProduct, product));

  if (libusb_kernel_driver_active(handle->device, 0) == 1) {
    if (options.log)
      options.log(fmt::format("{}: detaching the kernel driver (uas/usb-storage) from interface 0 "
                              "and resetting the bridge",
                              label));
    if (const int rc = libusb_detach_kernel_driver(handle->device, 0); rc != 0)
      fail(rc, "detach the kernel driver from interface 0");
    if (const int rc = libusb_reset_device(handle->device); rc != 0) fail(rc, "reset");
  }
  if (const int rc = libusb_set_configuration(handle->device, 1); rc != 0)
    fail(rc, "set configuration 1");
  if (const int rc = libusb_claim_interface(handle->device, 0); rc != 0)
    fail(rc, "claim interface 0");
  handle->claimed = true;
  if (const int rc = libusb_set_interface_alt_setting(handle->device, 0, 0); rc != 0)
    fail(rc, "select alternate setting 0");
  return std::unique_ptr<LibusbDevice>(new LibusbDevice(std::move(handle), bridge, product));
}

LibusbDevice::LibusbDevice(std::unique_ptr<Handle> handle, UsbBridgeInfo info, std::string product)
    : handle_(std::move(handle)), info_(info), product_(std::move(product)) {}

LibusbDevice::~LibusbDevice() = default;

std::string LibusbDevice::description() const {
  return fmt::format("{} ({:04X}:{:04X} {})", info_.label(), info_.vendor_id, info_.product_id,
                     product_);
}

void LibusbDevice::control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                               unsigned timeout_ms) {
  const int rc = libusb_control_transfer(
      handle_->device, setup.request_type, setup.request, setup.value, setup.index,
      const_cast<std::uint8_t *>(data.data()), static_cast<std::uint16_t>(data.size()), timeout_ms);
  const auto what = [&] {
    return fmt::format("{}: control OUT {:#04x} (wValue {:#06x}, wIndex {}), {} bytes",
                       info_.label(), setup.request, setup.value, setup.index, data.size());
  };
  if (rc < 0) throw_usb_error(usb_status_from_libusb(rc), what() + ": " + libusb_text(rc));
  if (static_cast<std::size_t>(rc) != data.size())
    throw_usb_error(UsbStatus::Short, fmt::format("{}: sent {} bytes", what(), rc));
}

std::vector<std::uint8_t> LibusbDevice::control_in(const UsbControlSetup &setup, std::size_t length,
                                                   unsigned timeout_ms) {
  std::vector<std::uint8_t> data(length);
  const int rc = libusb_control_transfer(handle_->device, setup.request_type, setup.request,
                                         setup.value, setup.index, data.data(),
                                         static_cast<std::uint16_t>(length), timeout_ms);
  if (rc < 0)
    throw_usb_error(usb_status_from_libusb(rc),
                    fmt::format("{}: control IN {:#04x} (wValue {:#06x}), {} bytes: {}",
                                info_.label(), setup.request, setup.value, length,
                                libusb_text(rc)));
  data.resize(static_cast<std::size_t>(rc));  // the caller checks the length
  return data;
}

void LibusbDevice::bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                            unsigned timeout_ms) {
  int transferred = 0;
  const int rc =
      libusb_bulk_transfer(handle_->device, endpoint, const_cast<std::uint8_t *>(data.data()),
                           static_cast<int>(data.size()), &transferred, timeout_ms);
  const auto what =
      fmt::format("{}: bulk OUT on {:#04x}, {} bytes", info_.label(), endpoint, data.size());
  if (rc < 0) throw_usb_error(usb_status_from_libusb(rc), what + ": " + libusb_text(rc));
  if (static_cast<std::size_t>(transferred) != data.size())
    throw_usb_error(UsbStatus::Short, fmt::format("{}: sent {} bytes", what, transferred));
}

std::vector<std::uint8_t> LibusbDevice::bulk_in(std::uint8_t endpoint, std::size_t length,
                                                unsigned timeout_ms) {
  std::vector<std::uint8_t> data(length);
  int transferred = 0;
  const int rc = libusb_bulk_transfer(handle_->device, endpoint, data.data(),
                                      static_cast<int>(length), &transferred, timeout_ms);
  if (rc < 0)
    throw_usb_error(usb_status_from_libusb(rc),
                    fmt::format("{}: bulk IN on {:#04x}, {} bytes: {}", info_.label(), endpoint,
                                length, libusb_text(rc)));
  data.resize(static_cast<std::size_t>(transferred));  // the caller checks the length
  return data;
}

}  // namespace wavescope::hw
