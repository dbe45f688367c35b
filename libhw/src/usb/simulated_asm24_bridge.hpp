#pragma once
// A simulated custom-firmware ASM24 bridge (navi31-flash.md §10.10): a UsbDevice that decodes the
// transport.md B.4 request set — XDATA reads/writes, single TLPs with completions, streaming
// memory reads/writes, the SRAM DMA engine, PCIe power — in front of a PCIe endpoint model. It
// models the four bridge ports (buses 0-3) with their bus numbers and memory windows, routes
// config requests to the endpoint at bus 4 and memory requests to its BARs, and injects USB and
// PCIe faults (UsbFaultPlan). Every USB transfer advances the injected clock.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "fault/usb_fault_plan.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pcie_config_space.hpp"
#include "wavescope/hw/transport/pcie_endpoint_model.hpp"
#include "wavescope/hw/transport/usb_device.hpp"

namespace wavescope::hw {

struct SimulatedAsm24BridgeOptions {
  // Time each USB transfer takes (a BAR5 access = control + bulk = 125 µs, navi31-flash.md §10.1).
  Clock::Duration transfer_latency = std::chrono::nanoseconds(62'500);
  std::string label = "sim-asm24";
  // Host the GPU's config space in the bridge (Navi31's identity, BARs and Resizable BAR, a
  // PcieConfigSpace reset when the slot powers off) instead of forwarding config requests to the
  // endpoint model; for endpoint models that only implement BAR accesses.
  bool emulate_gpu_config_space = false;
};

class SimulatedAsm24Bridge final : public UsbDevice {
public:
  SimulatedAsm24Bridge(PcieEndpointModel &gpu, Clock &clock,
                       SimulatedAsm24BridgeOptions options = {});

  UsbFaultPlan &faults() { return faults_; }

  std::string description() const override;
  void control_out(const UsbControlSetup &setup, std::span<const std::uint8_t> data,
                   unsigned timeout_ms) override;
  std::vector<std::uint8_t> control_in(const UsbControlSetup &setup, std::size_t length,
                                       unsigned timeout_ms) override;
  void bulk_out(std::uint8_t endpoint, std::span<const std::uint8_t> data,
                unsigned timeout_ms) override;
  std::vector<std::uint8_t> bulk_in(std::uint8_t endpoint, std::size_t length,
                                    unsigned timeout_ms) override;

  struct Counters {
    std::uint64_t transfers = 0;
    std::uint64_t failed_transfers = 0;
    std::uint64_t tlp_requests = 0;     // mode 0
    std::uint64_t stream_reads = 0;     // mode 2 executed
    std::uint64_t stream_writes = 0;    // mode 1 executed
    std::uint64_t unclaimed_reads = 0;  // dwords answered with all ones
    std::uint64_t dropped_writes = 0;   // dwords nobody claimed
  };
  const Counters &counters() const { return counters_; }
  bool pcie_powered() const { return powered_; }
  std::uint8_t xdata(std::uint16_t address) const;
  // A bridge port's config space (bus 0-3), for checking what the bring-up programmed.
  std::uint32_t bridge_config(unsigned bus, std::uint32_t offset, unsigned width) const;

private:
  struct Armed {
    enum class Kind { StreamWrite, StreamRead, SramWrite, SramRead } kind;
    std::uint64_t address = 0;  // PCIe address, or SRAM byte offset
    std::size_t bytes = 0;
  };
  using BridgeConfig = std::array<std::uint8_t, 4096>;

  void begin_transfer(UsbTransferKind kind, const UsbControlSetup *setup, unsigned timeout_ms,
                      std::size_t length, std::optional<UsbFault> &fault);
  [[noreturn]] void fail(UsbFaultEffect effect, UsbTransferKind kind, unsigned timeout_ms,
                         std::string_view what);
  std::string transfer_name(UsbTransferKind kind, const UsbControlSetup *setup,
                            std::size_t length) const;

  void handle_pcie_request(const UsbControlSetup &setup, std::span<const std::uint8_t> data);
  void handle_single_tlp(std::uint8_t fmt, std::uint8_t byte_enables, std::uint64_t address,
                         std::uint32_t value);
  void handle_sram_arm(const UsbControlSetup &setup);
  void set_power(bool on);

  bool link_alive() const;
  // Config routing: the target of a config request, or nullopt for Unsupported Request.
  struct ConfigTarget {
    bool gpu = false;
    unsigned bridge = 0;
  };
  std::optional<ConfigTarget> route_config(bool type1, unsigned bus, unsigned device,
                                           unsigned function) const;
  std::uint32_t target_config_read(const ConfigTarget &t, std::uint32_t offset, unsigned width);
  void target_config_write(const ConfigTarget &t, std::uint32_t offset, std::uint32_t value,
                           unsigned width);
  bool bridges_forward(std::uint64_t address) const;
  struct BarHit {
    unsigned bar = 0;
    std::uint64_t offset = 0;
  };
  std::optional<BarHit> route_memory(std::uint64_t address);
  std::uint32_t memory_read32(std::uint64_t address);
  void memory_write32(std::uint64_t address, std::uint32_t value, std::uint8_t byte_enables = 0xF);

  PcieEndpointModel &gpu_;
  Clock &clock_;
  SimulatedAsm24BridgeOptions options_;
  UsbFaultPlan faults_;
  Counters counters_;
  std::vector<std::uint8_t> xdata_;
  std::vector<std::uint8_t> sram_;
  std::array<BridgeConfig, 4> bridges_{};
  bool powered_ = false;
  std::optional<Armed> armed_;
  std::optional<std::array<std::uint8_t, 8>> completion_;
  // Host BAR sizing snooped on the way to the GPU: the mask read back after an all-ones write.
  std::array<std::optional<std::uint32_t>, 6> bar_masks_{};
  std::array<bool, 6> bar_sizing_{};
  std::optional<PcieConfigSpace> gpu_config_;  // when emulate_gpu_config_space
};

}  // namespace wavescope::hw
