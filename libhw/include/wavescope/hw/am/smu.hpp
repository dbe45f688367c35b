#pragma once
// The SMU (MP1) as AM drives it (am-driver.md §10): the normal and debug mailboxes with the
// firmware's response codes decoded (1 OK; 0xFF fail, 0xFE unknown message, 0xFD prerequisite
// not met, 0xFC busy: Error(Firmware)), the alive probe, init (driver-table address, all
// features), DPM level tables (count via index 0xFF, then each level; cached), set_clocks, the PPT
// limit, mode-1 reset, the metrics table and the ACA banks. Message and clock ids per SMU
// interface (RDNA 13.0.0/14.0.2, MI 13.0.6/13.0.12).

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wavescope::hw::am {

class AmGpu;

struct SmuIds {
  bool mi = false;  // 13.0.6/13.0.12 interface
  std::uint32_t get_smu_version = 0x2, enable_all_features = 0x6, driver_dram_high = 0xE,
                driver_dram_low = 0xF, transfer_table_to_dram = 0x12, get_metrics_table = 0,
                get_dpm_freq_by_index = 0x1F, set_soft_min = 0x19, set_soft_max = 0x1A,
                set_ppt_limit = 0x32, mode1_reset = 0x2F, gfx_driver_reset = 0, query_mca_count = 0,
                mca_dump = 0, query_mca_ce_count = 0, mca_ce_dump = 0;
  std::uint32_t gfxclk = 0, socclk = 1, uclk = 2, fclk = 3;
  std::uint32_t metrics_table = 5;  // firmware TABLE_SMU_METRICS
  static SmuIds for_mp1(unsigned major, unsigned minor, unsigned revision);
};
std::string smu_message_name(const SmuIds &ids, std::uint32_t msg);
std::string smu_clock_name(const SmuIds &ids, std::uint32_t clk);  // "UCLK", ...

struct SmuMessage {
  bool debug = false;
  std::uint32_t msg = 0, arg = 0;
  std::uint32_t response = 0;           // last value of the response register
  std::optional<std::uint32_t> result;  // the argument register read back, when asked
  bool timed_out = false;               // only for the waits whose timeout AM ignores
};

class AmSmu {
public:
  static constexpr std::uint64_t kDriverTableSize = 0x4000;
  explicit AmSmu(AmGpu &gpu);
  void init_sw();
  void init_hw();
  bool is_alive();
  void mode1_reset();
  const SmuIds &ids() const { return ids_; }
  // The clocks set_clocks drives, in message order: UCLK, FCLK, SOCCLK (+ GFXCLK, not on MI).
  std::vector<std::uint32_t> driven_clocks() const;
  // A clock's DPM levels in MHz (count query, then one query per level; cached).
  const std::vector<std::uint32_t> &dpm_levels(std::uint32_t clock);
  // level -1 = last, 0 = first; nullopt = unconstrained (min 0, max 0xFFFF).
  void set_clocks(std::optional<int> level);
  void set_power_limit(double watts);
  // The metrics table: TransferTableSmu2Dram (RDNA) or GetMetricsTable (MI), then `size` bytes
  // of the driver table.
  std::vector<std::uint8_t> read_metrics(std::size_t size);
  // ACA banks (MI only; empty elsewhere): per bank 16 64-bit registers.
  std::vector<std::vector<std::uint64_t>> read_aca_banks(bool uncorrectable);

  // One message: response 0 written, argument, message id; wait for a response code.
  std::uint32_t send(std::uint32_t msg, std::uint32_t arg, bool read_back = false,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10),
                     bool debug = false, bool ignore_timeout = false);
  std::uint64_t driver_table_paddr() const { return driver_table_paddr_; }
  const std::vector<SmuMessage> &messages() const { return messages_; }

private:
  AmGpu &gpu_;
  SmuIds ids_;
  std::uint64_t driver_table_paddr_ = 0;
  std::map<std::uint32_t, std::vector<std::uint32_t>> levels_;
  std::vector<SmuMessage> messages_;
};

}  // namespace wavescope::hw::am
