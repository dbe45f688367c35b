#pragma once
// The ASM24 USB-to-PCIe bridge with custom firmware as a PciFunction (transport.md Part B). The
// constructor runs the controller init (B.4.1: PCIe power and link training) and the PCIe
// bring-up (B.7: bridge bus numbers and windows, the GPU identity check, Resizable BAR, BAR
// assignment, COMMAND). Every BAR access is one 0xF0 streaming request plus one bulk transfer;
// config space uses single TLPs with completions. Nothing on the streaming path is ever retried;
// a single TLP is resent only when the bridge reports that it did not execute it (return status).

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/device_lock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"
#include "wavescope/hw/transport/usb_device.hpp"

namespace wavescope::hw {

struct Asm24Options {
  std::string id = "usb:asm24";  // PciFunction::id(), e.g. "usb:2-5"
  // Assign only BAR5 and enable MEMORY (not MASTER) on the bridges and the GPU; no BAR0 resize.
  bool minimal_bringup = false;
  // vendor | device << 16 the GPU at bus 4 must report (0x744C1002 = Navi31); 0 accepts any.
  std::uint32_t expected_gpu_id = 0x744C1002;
  unsigned tlp_retries = 10;  // single-TLP resends on a non-zero return status
  Clock::Duration tlp_retry_delay = std::chrono::milliseconds(1);
  Clock::Duration link_training_timeout = std::chrono::seconds(2);
  Clock::Duration link_poll_interval = std::chrono::milliseconds(10);
  // Told each thing the bring-up changes on the bridge and the GPU (bus numbers, windows, BARs).
  std::function<void(std::string_view)> log;
  // Held until close(): the device lock taken by whoever opened the bridge.
  std::shared_ptr<DeviceLock> lock;
};

class Asm24Transport final : public PciFunction {
public:
  Asm24Transport(std::unique_ptr<UsbDevice> usb, Clock &clock, Asm24Options options = {});
  ~Asm24Transport() override;
  Asm24Transport(const Asm24Transport &) = delete;
  Asm24Transport &operator=(const Asm24Transport &) = delete;

  std::string id() const override { return options_.id; }
  TransportKind kind() const override { return TransportKind::UsbAsm24; }
  // The GPU's config space (bus 4, device 0, function 0).
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  BarInfo bar(unsigned index) override;
  Mmio &map_bar(unsigned index) override;
  void close() override;

  // Config space of any function behind the bridge (bus 0-3: bridge ports, 4: GPU).
  std::uint32_t pcie_config_read(unsigned bus, std::uint32_t offset, unsigned width);
  void pcie_config_write(unsigned bus, std::uint32_t offset, std::uint32_t value, unsigned width);
  // Bridge memory (B.4.4): reads in chunks of at most 255 bytes, writes one byte per request.
  std::vector<std::uint8_t> xdata_read(std::uint16_t address, std::size_t length);
  void xdata_write(std::uint16_t address, std::uint8_t value);

  // All traffic of this transport: BAR operations of every mapped BAR, plus the USB requests of
  // config, XDATA and bring-up accesses (usb_requests counts every control and bulk transfer).
  const TransportStats &stats() const;
  // What the bring-up did, one line per step.
  const std::vector<std::string> &bringup_log() const { return bringup_log_; }
  bool closed() const { return closed_; }

  class Wire;  // the USB request layer (private; shared with the BAR regions)

private:
  void init_controller();
  void bring_up();
  void program_bridge(unsigned bus);
  void resize_bar0();
  void assign_bars();
  void note(std::string line);

  Asm24Options options_;
  Clock &clock_;
  std::unique_ptr<Wire> wire_;
  std::array<BarInfo, 6> bars_{};
  std::array<std::unique_ptr<Mmio>, 6> regions_{};
  std::vector<std::string> bringup_log_;
  mutable TransportStats stats_;
  bool closed_ = false;
};

}  // namespace wavescope::hw
