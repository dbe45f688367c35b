#pragma once
// One PCIe function reached through some transport (transport.md C.2): config space and BARs.

#include <cstdint>
#include <memory>
#include <string>

#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw {

enum class TransportKind { NativeSysfs, NativeVfio, UsbAsm24, Simulated };

struct BarInfo {
  std::uint64_t bus_address = 0;
  std::uint64_t size = 0;
  bool is64 = false;
  bool prefetchable = false;
  bool is_io = false;
  bool present = false;
};

class PciFunction {
public:
  virtual ~PciFunction() = default;
  // Stable identity: "pci:0000:03:00.0", "usb:2-5", "sim:<name>", "sim-pci:<name>".
  virtual std::string id() const = 0;
  virtual TransportKind kind() const = 0;
  // width is 1, 2 or 4; offset + width <= 4096; little-endian.
  virtual std::uint32_t config_read(std::uint32_t offset, unsigned width) = 0;
  virtual void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) = 0;
  virtual BarInfo bar(unsigned index) = 0;
  // The BAR's region, valid until close() or destruction.
  virtual Mmio &map_bar(unsigned index) = 0;
  // Releases the device lock; never resets the device.
  virtual void close() = 0;
};

}  // namespace wavescope::hw
