#pragma once
// Native PCIe access through Linux sysfs (transport.md Part A): config space through
// <bdf>/config, BARs by mapping <bdf>/resourceN. The sysfs root is a parameter so tests can point
// it at a fake tree, and the BAR mapping goes through an injectable factory.
//
// It never changes anything the user did not allow: an active kernel driver is refused unless
// `allow_unbind` is set, sibling functions are removed only with `allow_remove_siblings`, and
// every file it writes is announced through `log` before it is written (actions()).

#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/device_lock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw {

// Maps `size` bytes of BAR `index` whose sysfs file is `resource` (default: MappedMmio).
using MmioFactory = std::function<std::unique_ptr<Mmio>(const std::filesystem::path &resource,
                                                        unsigned index, std::uint64_t size)>;

struct SysfsOptions {
  std::filesystem::path sysfs_root = "/sys";
  // Unbind a bound kernel driver (the display on that GPU goes dark, its users lose it).
  bool allow_unbind = false;
  // Also hot-remove the device's sibling functions (HDMI/DP audio) as tinygrad does.
  bool allow_remove_siblings = false;
  // Write 1 to <bdf>/enable so the kernel turns memory decoding on (needed for BAR access).
  bool enable_device = true;
  // The device ids accepted for vendor 0x1002; empty accepts any AMD device.
  std::vector<std::uint16_t> device_ids = {0x744C};
  std::function<void(std::string_view)> log;  // told before each sysfs write
  std::shared_ptr<DeviceLock> lock;           // held until close()
  MmioFactory mmio_factory;                   // default: mmap of resourceN
};

class SysfsPciFunction : public PciFunction {
public:
  // Opens `bdf` ("0000:03:00.0"): checks identity, permissions and the bound driver, then (as
  // allowed) unbinds, removes siblings and enables the device. Throws wavescope::Error with the
  // transport.md A.12 sentence for each failure.
  SysfsPciFunction(std::string bdf, SysfsOptions options = {});
  ~SysfsPciFunction() override;

  std::string id() const override { return "pci:" + bdf_; }
  TransportKind kind() const override { return TransportKind::NativeSysfs; }
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  BarInfo bar(unsigned index) override;
  Mmio &map_bar(unsigned index) override;
  void close() override;

  const std::string &bdf() const { return bdf_; }
  // The kernel driver bound when the device was opened (before any unbind).
  const std::optional<std::string> &driver_at_open() const { return driver_at_open_; }
  // Every sysfs write this transport made, in order ("write 1 to .../enable").
  const std::vector<std::string> &actions() const { return actions_; }

private:
  std::filesystem::path device_dir() const;
  void write_sysfs(const std::filesystem::path &file, std::string_view text, std::string_view why);
  void read_resources();

  std::string bdf_;
  SysfsOptions options_;
  std::optional<std::string> driver_at_open_;
  std::array<BarInfo, 6> bars_{};
  std::array<std::unique_ptr<Mmio>, 6> regions_{};
  std::vector<std::string> actions_;
  int config_fd_ = -1;
  bool closed_ = false;
};

// One PCI function as sysfs lists it.
struct PciDeviceEntry {
  std::string bdf;
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::uint32_t class_code = 0;
  std::optional<std::string> driver;  // bound kernel driver
};

// Every function under <root>/bus/pci/devices, sorted by BDF; empty when there is no PCI sysfs or
// it cannot be read.
std::vector<PciDeviceEntry> list_pci_devices(const std::filesystem::path &sysfs_root = "/sys");
// AMD functions whose device id is in `device_ids` (default Navi31), sorted by BDF.
std::vector<PciDeviceEntry> list_navi31_devices(const std::filesystem::path &sysfs_root = "/sys",
                                                std::span<const std::uint16_t> device_ids = {});

}  // namespace wavescope::hw
