#pragma once
// The PSP (MP0) as AM drives it (am-driver.md §9): boot memory for the message buffer, command
// and fence buffers, the KM ring and the TMR (§9.3, §5.5); the bootloader handshake that starts
// the secure OS when it is not alive (§9.4); the KM ring and its commands (§9.5); and the firmware
// load plan (§9.6): TOC, SMU before the TMR, SETUP_TMR unless the part has a boot-time TMR with
// autoload, every IP image, then AUTOLOAD_RLC (GC >= 11) or the register list (GC 9).
//
// Waits and errors (§14.3): "BL not ready", "sOS failed to start", "sOS not ready", "sOS ring
// not created", "sOS ring not responding" are Error(Timeout) after 10 s; a command whose
// response status is not 0 is Error(Firmware) naming the command and the status.

#include <cstdint>
#include <string>
#include <vector>

namespace wavescope::hw::am {

class AmGpu;

// GFX_CMD_ID values (psp_gfx_if.h) AM sends.
namespace psp_cmd {
inline constexpr std::uint32_t kSetupTmr = 5, kLoadIpFw = 6, kLoadToc = 0x20, kAutoloadRlc = 0x21,
                               kSriovSpatialPart = 0x27;
}
std::string psp_command_name(std::uint32_t cmd_id);  // "LOAD_IP_FW", ...

// Bootloader commands written to C2PMSG_35 (§9.4).
namespace psp_bl {
inline constexpr std::uint32_t kLoadKeyDatabase = 0x8'0000, kLoadTosSplTable = 0x1000'0000,
                               kLoadSysDrv = 0x1'0000, kLoadSocDrv = 0xB'0000,
                               kLoadIntfDrv = 0xD'0000, kLoadDbgDrv = 0xC'0000,
                               kLoadRasDrv = 0xE'0000, kLoadSosDrv = 0x2'0000;
}
std::string psp_bootloader_command_name(std::uint32_t command);  // "LOAD_SOSDRV", ...

struct PspBootloaderLoad {
  std::uint32_t component = 0;  // PSP fw type sent (KDB twice on MP0 13.x)
  std::uint32_t command = 0;    // written to C2PMSG_35
  std::uint32_t msg1_reg = 0;   // written to C2PMSG_36 (msg1 address >> 20)
  std::uint64_t size = 0;       // component bytes
};

struct PspCommand {
  std::uint32_t cmd_id = 0;
  std::uint32_t wptr = 0;      // C2PMSG_67 after the frame (dwords)
  std::uint32_t fw_type = 0;   // LOAD_IP_FW: GFX_FW_TYPE
  std::uint64_t size = 0;      // LOAD_IP_FW/LOAD_TOC: bytes; SETUP_TMR: TMR size
  std::uint64_t address = 0;   // msg1 / TMR MC address
  std::uint32_t tmr_size = 0;  // LOAD_TOC response
};

class AmPsp {
public:
  static constexpr std::uint64_t kMsg1Size = 1 << 20, kRingSize = 0x10000;
  static constexpr std::uint64_t kMaxTmrSize = 0x130'0000;

  explicit AmPsp(AmGpu &gpu);
  void init_sw();
  void init_hw();
  bool is_sos_alive();
  // SRIOV_SPATIAL_PART (GFX init with more than one XCC).
  void spatial_partition(std::uint32_t mode);

  std::uint64_t msg1_paddr() const { return msg1_paddr_; }
  std::uint64_t ring_paddr() const { return ring_paddr_; }
  std::uint64_t cmd_paddr() const { return cmd_paddr_; }
  std::uint64_t fence_paddr() const { return fence_paddr_; }
  std::uint64_t tmr_paddr() const { return tmr_paddr_; }
  std::uint32_t tmr_size() const { return tmr_size_; }
  bool boot_time_tmr() const { return boot_time_tmr_; }
  const std::vector<PspBootloaderLoad> &bootloader_loads() const { return loads_; }
  const std::vector<PspCommand> &commands() const { return commands_; }

private:
  std::string reg(unsigned n) const;  // "mp0.MPASP_SMN_C2PMSG_<n>" or "mp0.MP0_SMN_C2PMSG_<n>"
  void wait_bootloader();
  void prep_msg1(const std::uint8_t *data, std::size_t size);
  void load_component(std::uint32_t component, std::uint32_t command);
  void ring_create();
  PspCommand submit(std::uint32_t cmd_id, const std::vector<std::uint8_t> &payload,
                    PspCommand record);
  void load_ip_fw(const std::vector<std::uint32_t> &types, const std::uint8_t *data,
                  std::size_t size);

  AmGpu &gpu_;
  std::string prefix_;
  std::uint64_t msg1_paddr_ = 0, msg1_addr_ = 0, cmd_paddr_ = 0, fence_paddr_ = 0;
  std::uint64_t ring_paddr_ = 0, tmr_paddr_ = 0;
  std::uint32_t tmr_size_ = 0;
  bool boot_time_tmr_ = false, autoload_tmr_ = true;
  std::vector<PspBootloaderLoad> loads_;
  std::vector<PspCommand> commands_;
};

}  // namespace wavescope::hw::am
