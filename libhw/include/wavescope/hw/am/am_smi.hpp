#pragma once
// AMSMI (am-driver.md §15): the state of a GPU AM booted, read while another process may own it —
// the SMU metrics table (activity, clocks, temperatures, voltages, power, fan, throttling) and
// the VRAM in use from the VMID-0 page tables. Requires SCRATCH_REG7 = 0xA000_0008; the driver is
// attached without hardware init and without zeroing the root page table. RDNA3/4 layouts only;
// MI300's metrics table is not decoded yet. Printers: JSON (one line) and text.

#include <cstdint>
#include <string>

#include "wavescope/hw/am/smu_metrics.hpp"

namespace wavescope::hw::am {

class AmGpu;

struct AmSmiReport {
  std::string device;
  std::string gc_version, mp1_version;
  bool vf = false;
  SmuMetrics metrics;
  // Post-deep-sleep clocks when the block is idle (activity <= threshold), else pre-DS (§15).
  std::uint16_t gfxclk = 0, memclk = 0, fclk = 0;
  unsigned activity_threshold = 15;  // % (5 on MP1 14.0.2)
  std::uint64_t vram_used = 0, vram_size = 0;
};

AmSmiReport am_smi(AmGpu &gpu, const std::string &device);

std::string to_json(const AmSmiReport &report);
std::string to_text(const AmSmiReport &report);

}  // namespace wavescope::hw::am
