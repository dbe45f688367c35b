// The default GMC, IH, GFX and SDMA blocks of the boot orchestration (am_blocks.hpp): what the
// boot needs of them — apertures, boot allocations, the HDP flush — and no-ops elsewhere. Each
// no-op is a step of the spec a fuller block (registered with AmBlockRegistration) performs.

#include <mutex>

#include <fmt/format.h>

#include "wavescope/hw/am/am_blocks.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/memory_manager.hpp"

namespace wavescope::hw::am {

namespace {

class BasicGmc final : public AmGmc {
public:
  explicit BasicGmc(AmGpu &gpu) : gpu_(gpu) {}

  void init_sw() override {
    auto &dev = gpu_.device();
    if (dev.has_register("mmhub.MMMC_VM_XGMI_LFB_CNTL")) {
      region_ = dev.rfield("mmhub.MMMC_VM_XGMI_LFB_CNTL", "PF_LFB_REGION");
      max_region_ = dev.rfield("mmhub.MMMC_VM_XGMI_LFB_CNTL", "PF_MAX_REGION");
    }
    if (dev.has_register("mmhub.MMMC_VM_XGMI_LFB_SIZE"))
      segment_ = dev.rfield("mmhub.MMMC_VM_XGMI_LFB_SIZE", "PF_LFB_SIZE") << 24;
    paddr_base_ = region_ * segment_;
    fb_base_ = std::uint64_t{dev.rreg("mmhub.MMMC_VM_FB_LOCATION_BASE") & 0xFFFFFF} << 24;
    mc_base_ = fb_base_ + paddr_base_;
    auto &mm = gpu_.mm();
    mm.palloc(0x1000, 0x1000, false, true, "GMC memscratch page");
    mm.palloc(0x1000, 0x1000, false, true, "GMC dummy page");
  }
  // No-op here: the MM hub programming of §7.5 is the GMC block's.
  void init_hw() override {}
  void flush_hdp() override {
    auto &dev = gpu_.device();
    dev.write_dword(dev.rreg("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL") / 4, 0);
  }
  // No-op here: the invalidate-engine sequence of §7.6 is the GMC block's.
  void flush_tlb(std::string_view, unsigned) override {}
  std::uint64_t mc_base() const override { return mc_base_; }
  std::uint64_t paddr_base() const override { return paddr_base_; }
  bool is_hive() const override { return segment_ > 0 && max_region_ > 0; }
  std::string fault_status_register() const override {
    return gpu_.device().ip_version("GC").major >= 12 ? "gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32"
                                                      : "gc.GCVM_L2_PROTECTION_FAULT_STATUS";
  }

private:
  AmGpu &gpu_;
  std::uint64_t region_ = 0, max_region_ = 0, segment_ = 0, paddr_base_ = 0, fb_base_ = 0,
                mc_base_ = 0;
};

class BasicIh final : public AmIh {
public:
  explicit BasicIh(AmGpu &gpu) : gpu_(gpu) {}
  void init_sw() override {
    auto &mm = gpu_.mm();
    mm.palloc(256 << 10, 0x1000, false, true, "IH ring 0");
    mm.palloc(0x1000, 0x1000, false, true, "IH ring 0 wptr");
    mm.palloc(256 << 10, 0x1000, false, true, "IH ring 1");
    mm.palloc(0x1000, 0x1000, false, true, "IH ring 1 wptr");
  }
  // No-ops here: ring programming (§11) and the handler are the IH block's.
  void init_hw() override {}
  void interrupt_handler() override {}

private:
  AmGpu &gpu_;
};

class BasicGfx final : public AmGfx {
public:
  explicit BasicGfx(AmGpu &gpu) : gpu_(gpu) {}
  void init_sw() override {
    const auto xccs = gpu_.xcc_count();
    for (int q = 0; q < 2; ++q)
      gpu_.mm().palloc(0x1000 * xccs, 0x1000, false, true, fmt::format("GFX MQD queue {}", q));
  }
  // No-ops here: GFX init (§12.3), dequeue and MEC reset (§12.5), clock gating (§13) are the
  // GFX block's.
  void init_hw() override {}
  void fini_hw() override {}
  void reset_mec() override {}
  void set_clockgating_state() override {}

private:
  AmGpu &gpu_;
};

// No-ops here: SDMA init (§12.6) and fini (§14.1) are the SDMA block's.
class BasicSdma final : public AmSdma {
public:
  void init_sw() override {}
  void init_hw() override {}
  void fini_hw() override {}
};

std::mutex &factories_mutex() {
  static std::mutex m;
  return m;
}

AmBlockFactories &registered() {
  static AmBlockFactories f = basic_am_block_factories();
  return f;
}

}  // namespace

AmBlockFactories basic_am_block_factories() {
  AmBlockFactories f;
  f.gmc = [](AmGpu &gpu) { return std::make_unique<BasicGmc>(gpu); };
  f.ih = [](AmGpu &gpu) { return std::make_unique<BasicIh>(gpu); };
  f.gfx = [](AmGpu &gpu) { return std::make_unique<BasicGfx>(gpu); };
  f.sdma = [](AmGpu &) { return std::make_unique<BasicSdma>(); };
  return f;
}

AmBlockRegistration::AmBlockRegistration(AmBlockFactories r) {
  std::lock_guard lock(factories_mutex());
  auto &f = registered();
  if (r.gmc) f.gmc = std::move(r.gmc);
  if (r.ih) f.ih = std::move(r.ih);
  if (r.gfx) f.gfx = std::move(r.gfx);
  if (r.sdma) f.sdma = std::move(r.sdma);
}

AmBlockFactories am_block_factories() {
  std::lock_guard lock(factories_mutex());
  return registered();
}

}  // namespace wavescope::hw::am
