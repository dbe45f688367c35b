#pragma once
// What `wavectl am boot|fini` report (am-driver.md §5, §14, §19.3): the boot mode and why, the
// steps in order, the boot allocations (§5.5), the PSP bootloader loads and KM-ring commands,
// the SMU messages, and the scratch markers after the command. Printers: JSON (one object, one
// line) and text.

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/psp.hpp"
#include "wavescope/hw/am/smu.hpp"

namespace wavescope::hw::am {

struct BootReport {
  std::string device;
  std::string command;  // "boot" or "fini"
  BootRecord record;
  std::vector<MemoryAllocation> allocations;
  std::uint64_t psp_ring_paddr = 0, psp_ring_size = 0;
  std::vector<PspBootloaderLoad> bootloader_loads;
  std::vector<PspCommand> psp_commands;
  SmuIds smu_ids;
  std::vector<SmuMessage> smu_messages;
  std::uint32_t scratch_reg7 = 0, scratch_reg6 = 0;
  std::string firmware;  // the firmware source
};

// Collects the report from a driver after boot() or fini().
BootReport boot_report(AmGpu &gpu, const std::string &device, const std::string &command);

std::string to_json(const BootReport &report);
std::string to_text(const BootReport &report);

}  // namespace wavescope::hw::am
