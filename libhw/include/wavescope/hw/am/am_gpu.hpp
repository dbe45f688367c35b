#pragma once
// The AM driver's boot orchestration (am-driver.md §5, §14): software init of every block in
// AM's order (memory manager + root page table, firmware, SOC, GMC, IH, PSP, SMU, GFX, SDMA — all
// boot allocations), the boot-mode decision (SCRATCH_REG7 = 0xA000_0008 → partial boot, cancelled
// by SCRATCH_REG6 ≠ 0 or a GC VM fault status), the full boot (mode-1 reset of a GPU somebody
// initialised, bus master, SOC/GMC/IH/PSP/SMU hardware init), GFX and SDMA init, clocks, clock
// gating and the scratch markers; fini (SDMA, GFX, clocks to level 0, interrupts, SCRATCH_REG6)
// and recovery.
//
// "Attach" mode (fini or AMSMI in a new process) runs the software init without zeroing the root
// page table and requires SCRATCH_REG7 = 0xA000_0008 ("not initialised by AM" otherwise). Real
// hardware is untested (tier 2).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/hw/am/am_blocks.hpp"

namespace wavescope::hw::am {

class AmDevice;
class FirmwareSet;
class FirmwareSource;
class MemoryManager;
class AmSoc;
class AmPsp;
class AmSmu;

struct AmGpuOptions {
  bool force_reset = false;            // AM_RESET=1: never a partial boot
  double power_limit_watts = 0;        // AM_POWER_LIMIT: > 0 → SetPptLimit, unconstrained clocks
  bool attach = false;                 // software init only, of a GPU AM booted (fini, AMSMI)
  FirmwareSource *firmware = nullptr;  // default: synthetic firmware
};

enum class BootMode { Full, Partial };

struct BootRecord {
  BootMode mode = BootMode::Full;
  std::string reason;              // why this mode
  bool mode1_reset = false;        // a full boot that found firmware alive
  std::vector<std::string> steps;  // "init_sw SOC", "init_hw PSP", "clocks level -1", ...
};

class AmGpu {
public:
  static constexpr std::uint32_t kVersion = 0xA000'0008;  // SCRATCH_REG7 marker

  // Construction steps 1-4 of §5.1: the device is open and discovered; software init here.
  AmGpu(AmDevice &device, AmGpuOptions options = {});
  ~AmGpu();
  AmGpu(const AmGpu &) = delete;
  AmGpu &operator=(const AmGpu &) = delete;

  // Steps 5-9: boot-mode decision, hardware init, clocks, clock gating, scratch markers.
  const BootRecord &boot();
  // §14.1: SDMA, GFX, clocks to level 0, interrupt handler, SCRATCH_REG6 = error state.
  void fini();
  // §14.2: only when forced or in error state; returns whether it ran.
  bool recover(bool force = false);

  AmDevice &device() { return device_; }
  MemoryManager &mm() { return *mm_; }
  FirmwareSet &fw();
  AmSoc &soc() { return *soc_; }
  AmGmc &gmc() { return *gmc_; }
  AmIh &ih() { return *ih_; }
  AmPsp &psp() { return *psp_; }
  AmSmu &smu() { return *smu_; }
  AmGfx &gfx() { return *gfx_; }
  AmSdma &sdma() { return *sdma_; }

  bool booting() const;
  bool partial_boot() const { return record_.mode == BootMode::Partial; }
  bool err_state() const { return err_state_; }
  void set_err_state(bool on) { err_state_ = on; }
  bool attached() const { return options_.attach; }
  unsigned xcc_count() const;
  const BootRecord &record() const { return record_; }
  void log(std::string step) { record_.steps.push_back(std::move(step)); }

private:
  void init_sw();
  void decide_boot_mode();

  AmDevice &device_;
  AmGpuOptions options_;
  std::unique_ptr<FirmwareSource> owned_firmware_;
  std::unique_ptr<MemoryManager> mm_;
  std::unique_ptr<FirmwareSet> fw_;
  std::unique_ptr<AmSoc> soc_;
  std::unique_ptr<AmGmc> gmc_;
  std::unique_ptr<AmIh> ih_;
  std::unique_ptr<AmPsp> psp_;
  std::unique_ptr<AmSmu> smu_;
  std::unique_ptr<AmGfx> gfx_;
  std::unique_ptr<AmSdma> sdma_;
  BootRecord record_;
  bool err_state_ = false;
  bool booted_ = false;
};

}  // namespace wavescope::hw::am
