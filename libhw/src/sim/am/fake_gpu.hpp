#pragma once
// The fake AMD GPU (am-driver.md §19.2): a PCIe endpoint whose BAR0 is sparse VRAM, BAR2 the
// doorbells and BAR5 a register file; config space with COMMAND (bus master observed) and
// Resizable BAR; the discovery ROM of a chip profile at VRAM top - 64 KiB; the fixed registers
// (RCC_CONFIG_MEMSIZE, RCC_IOV_FUNC_IDENTIFIER), the MM_INDEX/MM_DATA VRAM window and the RSMU
// and PCIE INDEX2 indirections; and the block models (PSP, SMU, GMC, ...) that hook registers.
// Reached directly (FakeGpuPciFunction) or through the simulated ASM24 bridge, both behind
// PciFunction; persisted by AmChipStore. Time is the injected clock's.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/am/block_model.hpp"
#include "sim/am/fake_gpu_config.hpp"
#include "sim/am/register_file.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/regs/register_map.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pcie_config_space.hpp"
#include "wavescope/hw/transport/pcie_endpoint_model.hpp"

namespace wavescope::hw::am {
class RegisterNamer;
}

namespace wavescope::hw::sim::am {

// Fixed register indices (§2).
inline constexpr RegisterKey kMmIndex = 0x0, kMmData = 0x1, kMmIndexHi = 0x6;
inline constexpr RegisterKey kRccConfigMemsize = 0xDE3, kRccIovFuncIdentifier = 0xDE5;

// One doorbell write as BAR2 received it.
struct DoorbellWrite {
  std::uint64_t offset = 0;  // byte offset in BAR2 (slot = offset / 8)
  std::uint32_t value = 0;   // the dword written
};

class FakeGpu final : public PcieEndpointModel {
public:
  // A new chip at power-on: discovery ROM written, block models created and reset.
  FakeGpu(FakeGpuConfig config, Clock &clock);
  ~FakeGpu() override;
  FakeGpu(const FakeGpu &) = delete;
  FakeGpu &operator=(const FakeGpu &) = delete;

  // PcieEndpointModel
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  std::uint32_t bar_read32(unsigned bar, std::uint64_t offset) override;
  void bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) override;

  const FakeGpuConfig &config() const { return config_; }
  FakeGpuConfig &mutable_config() { return config_; }
  Clock &clock() { return clock_; }
  PcieFunctionIdentity identity() const;
  const PcieConfigSpace &config_space() const { return config_space_; }
  PcieConfigSpace &config_space() { return config_space_; }
  bool bus_master() const { return (config_space_.read(0x04, 2) & 0x4) != 0; }

  // --- for block models ---
  RegisterFile &registers() { return registers_; }
  const RegisterFile &registers() const { return registers_; }
  hw::am::SimulatedVram &vram() { return vram_; }
  const hw::am::DiscoveryTable &discovery() const { return discovery_; }
  const regs::RegisterMap &register_map() const { return register_map_; }
  // The key of a register by name ("mp0.MPASP_SMN_C2PMSG_35", "gc.SCRATCH_REG7"), instance
  // `instance`; throws Error(Usage) as resolve_register does.
  RegisterKey key(std::string_view name, unsigned instance = 0) const;
  // Whether the chip's register database has that register.
  bool has_register(std::string_view name) const;
  // The discovered version of a block ("gc", "mp0", "mp1", "sdma0", "nbio", ...): {0,0,0} if
  // absent. (For HWIPs without a register table too: "sdma0" on every chip.)
  regs::IpVersion ip_version(std::string_view hwip) const;
  // MC address (PSP, SMU, IH pointers) -> VRAM paddr: mc - fb_base - paddr_base, where fb_base
  // comes from MMMC_VM_FB_LOCATION_BASE as stored. A GMC model may replace the translation.
  std::uint64_t mc_to_paddr(std::uint64_t mc) const;
  void set_mc_translation(std::function<std::uint64_t(std::uint64_t)> translate);
  // Doorbell subscribers run after every BAR2 dword write, in subscription order.
  void on_doorbell(std::function<void(const DoorbellWrite &)> handler);
  // A line for `sim-am status` and the tests ("psp: LOAD_SOSDRV (sos) accepted").
  void note(std::string line);
  // A block model by name (nullptr when absent).
  BlockModel *block(std::string_view name);
  std::vector<BlockModel *> blocks();

  // --- whole-chip events ---
  // Power-on or mode-1 reset: registers cleared, the core's fixed registers and every block's
  // reset values restored. VRAM keeps its contents.
  void reset(ResetKind kind);
  // Power off and on: the discovery ROM written again, then reset(PowerOn).
  void power_cycle();
  // "BLOCK:KIND[,KEY=VALUE]...": handed to that block's model; Error(Usage) listing the blocks
  // and their fault kinds when nobody takes it.
  void arm_fault(const std::string &text);
  void clear_faults();

  // --- observability ---
  const std::vector<DoorbellWrite> &doorbells() const { return doorbells_; }
  const std::vector<std::string> &notes() const { return notes_; }
  // The register trace, named from the chip's register database.
  std::string trace_text() const;
  const hw::am::RegisterNamer &namer() const;
  void clear_run_records();  // trace, doorbells, notes (a new command begins)

  // Persistence: everything but VRAM (which AmChipStore writes as pages).
  nlohmann::json save() const;
  static std::unique_ptr<FakeGpu> load(const nlohmann::json &json, Clock &clock);

private:
  struct RestoreTag {};
  FakeGpu(RestoreTag, FakeGpuConfig config, Clock &clock);
  void build();
  void install_core_hooks();
  void core_reset();
  std::uint64_t mm_window_address() const;

  FakeGpuConfig config_;
  Clock &clock_;
  hw::am::DiscoveryTable discovery_;
  regs::RegisterMap register_map_;
  mutable std::unique_ptr<hw::am::RegisterNamer> namer_;
  hw::am::SimulatedVram vram_;
  PcieConfigSpace config_space_;
  RegisterFile registers_;
  std::vector<std::unique_ptr<BlockModel>> blocks_;
  std::vector<std::uint64_t> doorbell_slots_;
  std::vector<DoorbellWrite> doorbells_;
  std::vector<std::function<void(const DoorbellWrite &)>> doorbell_handlers_;
  std::vector<std::string> notes_;
  std::function<std::uint64_t(std::uint64_t)> mc_translation_;
  // Indirection registers of this chip (0 = absent).
  RegisterKey rsmu_index_ = 0, rsmu_data_ = 0;
  RegisterKey pcie_index2_ = 0, pcie_index2_hi_ = 0, pcie_data2_ = 0;
};

// The chip's PCI identity: vendor 0x1002, the config's device id, BAR0 64-bit prefetchable with
// Resizable BAR from 256 MiB up to bar0_size, BAR2 64-bit prefetchable doorbells, BAR5 32-bit.
PcieFunctionIdentity fake_gpu_identity(const FakeGpuConfig &config);

}  // namespace wavescope::hw::sim::am
