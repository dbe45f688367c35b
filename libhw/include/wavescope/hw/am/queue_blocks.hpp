#pragma once
// The AM boot's GMC, IH, GFX and SDMA blocks (am_blocks.hpp interfaces) built on this library's
// register sequences — GmcBlock, IhBlock, GfxBlock, SdmaBlock — registered with
// AmBlockRegistration so AmGpu uses them instead of the basic blocks. Boot allocations are the
// basic blocks' (§5.5 rows 2-7, 14-15: same sizes, owners and order). Each block reaches the
// device through its own AmDeviceBus/AmRegisters; the GFX and IH blocks share the GMC block's
// GmcBlock (its hub state). Real hardware: untested on hardware (tier 2).

#include <optional>

#include "wavescope/hw/am/am_blocks.hpp"
#include "wavescope/hw/am/am_device_bus.hpp"
#include "wavescope/hw/am/gfx.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/ih_ring.hpp"
#include "wavescope/hw/am/sdma.hpp"

namespace wavescope::hw::am {

// The register access every block builds from the AmGpu's device.
struct BlockContext {
  explicit BlockContext(AmGpu &gpu);
  AmDeviceBus bus;
  AmDeviceVram vram;
  AmRegisters regs;
  AmChipInfo chip;
};

class QueueGmc final : public AmGmc {
public:
  explicit QueueGmc(AmGpu &gpu);
  void init_sw() override;
  void init_hw() override;
  void flush_hdp() override;
  void flush_tlb(std::string_view hub, unsigned vmid) override;
  std::uint64_t mc_base() const override { return block_.apertures().mc_base; }
  std::uint64_t paddr_base() const override { return block_.apertures().paddr_base; }
  bool is_hive() const override { return block_.apertures().is_hive(); }
  std::string fault_status_register() const override;
  GmcBlock &block() { return block_; }

private:
  AmGpu &gpu_;
  BlockContext ctx_;
  GmcBlock block_;
};

class QueueIh final : public AmIh {
public:
  explicit QueueIh(AmGpu &gpu);
  void init_sw() override;
  void init_hw() override;
  // Runs the handler; an entry or RAS status that means an error puts the AmGpu in error state.
  void interrupt_handler() override;
  const IhReport &last_report() const { return last_; }
  IhBlock &block() { return *block_; }

private:
  AmGpu &gpu_;
  BlockContext ctx_;
  std::optional<IhBlock> block_;
  IhReport last_;
};

class QueueGfx final : public AmGfx {
public:
  explicit QueueGfx(AmGpu &gpu);
  void init_sw() override;
  void init_hw() override;
  void fini_hw() override;
  void reset_mec() override;
  void set_clockgating_state() override;
  GfxBlock &block() { return *block_; }

private:
  AmGpu &gpu_;
  BlockContext ctx_;
  std::optional<GfxBlock> block_;
};

class QueueSdma final : public AmSdma {
public:
  explicit QueueSdma(AmGpu &gpu);
  void init_sw() override {}
  void init_hw() override;
  void fini_hw() override;
  SdmaBlock &block() { return block_; }

private:
  BlockContext ctx_;
  SdmaBlock block_;
};

// The AmGpu's GMC as a QueueGmc (Error(Internal) when another GMC block is registered).
QueueGmc &queue_gmc(AmGpu &gpu);

}  // namespace wavescope::hw::am
