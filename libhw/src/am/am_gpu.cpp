#include "wavescope/hw/am/am_gpu.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/firmware_set.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/psp.hpp"
#include "wavescope/hw/am/smu.hpp"
#include "wavescope/hw/am/soc.hpp"

namespace wavescope::hw::am {

AmGpu::AmGpu(AmDevice &device, AmGpuOptions options) : device_(device), options_(options) {
  if (!options_.firmware) {
    owned_firmware_ = std::make_unique<SyntheticFirmware>();
    options_.firmware = owned_firmware_.get();
  }
  if (options_.attach) {
    const auto marker = device_.rreg("gc.SCRATCH_REG7");
    if (marker != kVersion)
      throw Error(ErrorKind::State,
                  fmt::format("{}: not a GPU booted by AM: gc.SCRATCH_REG7 (0x{:X}) reads "
                              "0x{:08X}, not 0x{:08X} (boot it first)",
                              device_.function().id(), device_.address("gc.SCRATCH_REG7"), marker,
                              kVersion));
  }
  init_sw();
}

AmGpu::~AmGpu() = default;

FirmwareSet &AmGpu::fw() { return *fw_; }

bool AmGpu::booting() const { return mm_ && mm_->booting(); }

unsigned AmGpu::xcc_count() const { return device_.xcc_count(); }

void AmGpu::init_sw() {
  // §5.1 step 4: every allocation here comes from boot memory.
  const auto gc = device_.ip_version("GC");
  mm_ = std::make_unique<MemoryManager>(device_, device_.vram_size() - device_.reserved_vram_size(),
                                        !device_.large_bar(), pt_generation_for_gc(gc.major),
                                        !options_.attach);
  mm_->set_booting(true);
  fw_ = std::make_unique<FirmwareSet>(
      *options_.firmware, FirmwareVersions{gc, device_.ip_version("MP0"), device_.ip_version("MP1"),
                                           device_.ip_version("SDMA0")});
  const auto factories = am_block_factories();
  soc_ = std::make_unique<AmSoc>(*this);
  gmc_ = factories.gmc(*this);
  ih_ = factories.ih(*this);
  psp_ = std::make_unique<AmPsp>(*this);
  smu_ = std::make_unique<AmSmu>(*this);
  gfx_ = factories.gfx(*this);
  sdma_ = factories.sdma(*this);
  soc_->init_sw();
  log("init_sw SOC");
  gmc_->init_sw();
  mm_->set_paddr_base(gmc_->paddr_base());
  log("init_sw GMC");
  ih_->init_sw();
  log("init_sw IH");
  psp_->init_sw();
  log("init_sw PSP");
  smu_->init_sw();
  log("init_sw SMU");
  gfx_->init_sw();
  log("init_sw GFX");
  sdma_->init_sw();
  log("init_sw SDMA");
  if (options_.attach) mm_->set_booting(false);
}

void AmGpu::decide_boot_mode() {
  const auto r7 = device_.rreg("gc.SCRATCH_REG7");
  if (r7 != kVersion) {
    record_.mode = BootMode::Full;
    record_.reason = fmt::format("gc.SCRATCH_REG7 = 0x{:08X}: not left by AM", r7);
    return;
  }
  if (options_.force_reset) {
    record_.mode = BootMode::Full;
    record_.reason = "a reset was asked for (AM_RESET)";
    return;
  }
  const auto r6 = device_.rreg("gc.SCRATCH_REG6");
  const auto fault_reg = gmc_->fault_status_register();
  const auto fault = device_.rreg(fault_reg);
  if (r6 != 0 || fault != 0) {
    record_.mode = BootMode::Full;
    record_.reason = r6 != 0 ? fmt::format("malformed state: gc.SCRATCH_REG6 = 0x{:X} (the "
                                           "previous session did not finish cleanly)",
                                           r6)
                             : fmt::format("malformed state: {} = 0x{:X}", fault_reg, fault);
    return;
  }
  record_.mode = BootMode::Partial;
  record_.reason = "left by AM after a clean fini";
}

const BootRecord &AmGpu::boot() {
  if (options_.attach)
    throw Error(ErrorKind::Usage, "AmGpu: a GPU attached for fini or AMSMI cannot be booted");
  if (booted_) return record_;
  booted_ = true;
  decide_boot_mode();
  log(fmt::format("boot mode {} ({})", partial_boot() ? "partial" : "full", record_.reason));
  if (!partial_boot()) {
    // Somebody initialised the GPU (amdgpu, or an AM session that did not finish): mode-1 reset.
    if (psp_->is_sos_alive() && smu_->is_alive()) {
      device_.set_bus_master(false);
      if (gmc_->is_hive())
        throw Error(ErrorKind::State,
                    fmt::format("{}: malformed state of an XGMI hive member: reset every member "
                                "of the hive together (hive reset)",
                                device_.function().id()));
      smu_->mode1_reset();
      record_.mode1_reset = true;
    }
    device_.set_bus_master(true);
    soc_->init_hw();
    log("init_hw SOC");
    gmc_->init_hw();
    log("init_hw GMC");
    ih_->init_hw();
    log("init_hw IH");
    psp_->init_hw();
    log("init_hw PSP");
    smu_->init_hw();
    log("init_hw SMU");
  }
  mm_->set_booting(false);
  mm_->set_tlb_flush([this] {
    gmc_->flush_tlb("GC", 0);
    gmc_->flush_tlb("MM", 0);
  });
  gfx_->init_hw();
  log("init_hw GFX");
  sdma_->init_hw();
  log("init_hw SDMA");
  if (options_.power_limit_watts > 0) {
    smu_->set_power_limit(options_.power_limit_watts);
    smu_->set_clocks(std::nullopt);
  } else {
    smu_->set_clocks(-1);
  }
  soc_->set_clockgating_state();
  gfx_->set_clockgating_state();
  log("clock gating SOC, GFX");
  device_.wreg("gc.SCRATCH_REG7", kVersion);
  device_.wreg("gc.SCRATCH_REG6", 1);
  log("boot done: SCRATCH_REG7 = 0xA0000008, SCRATCH_REG6 = 1");
  return record_;
}

void AmGpu::fini() {
  sdma_->fini_hw();
  gfx_->fini_hw();
  log("fini SDMA, GFX");
  smu_->set_clocks(0);
  ih_->interrupt_handler();
  device_.wreg("gc.SCRATCH_REG6", err_state_ ? 1 : 0);
  log(fmt::format("fini done: SCRATCH_REG6 = {}", err_state_ ? 1 : 0));
}

bool AmGpu::recover(bool force) {
  if (!force && !err_state_) return false;
  ih_->interrupt_handler();
  gfx_->reset_mec();
  err_state_ = false;
  log("recovered: interrupts handled, MEC reset");
  return true;
}

}  // namespace wavescope::hw::am
