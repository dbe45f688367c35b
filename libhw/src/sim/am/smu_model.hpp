#pragma once
// The fake GPU's SMU (am-driver.md §19.2 item 5): both mailboxes (message 66/75, argument 82/53,
// response 90/54 on MP1's bases at the mp_11_0 offsets), response codes 1 / 0xFF / 0xFE / 0xFD /
// 0xFC, per-clock DPM tables (count via index 0xFF, MHz per level), soft min/max per clock, the
// PPT limit, the features-enabled flag, the driver-table address, TransferTableSmu2Dram /
// GetMetricsTable writing a scripted metrics table into VRAM, mode-1 reset (the whole chip), MCA
// bank counts; faults: timeouts, response codes, a dead SMU.
//
// The SMU firmware runs from power-on on GC 9 parts and once the PSP has loaded the SMU image
// (LOAD_IP_FW SMU) on GC >= 11; before that, messages get no answer.
//
// Settings: smu.levels.<clock>=MHz,MHz,... (gfxclk, socclk, uclk, fclk), smu.version,
// smu.metrics.<field>=value (gfx_activity, uclk_activity, socket_power, power_limit, fan_rpm,
// fan_pwm, gfxclk, memclk, fclk, temp.<NAME>, voltage.<PLANE>, throttle.<NAME>), smu.mca_banks.
// smu.latency_us (an answer appears that long after the message; default 0).
// Faults: smu:timeout[,msg=ID][,nth=N][,debug=1]; smu:response,value=CODE[,msg=ID][,nth=N];
// smu:slow,us=N[,msg=ID][,nth=N] (that answer comes N µs late); smu:dead (no answer to anything
// until a power cycle).

#include <cstdint>
#include <map>

#include "wavescope/hw/transport/clock.hpp"
#include <string>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/register_file.hpp"
#include "wavescope/hw/am/smu.hpp"

namespace wavescope::hw::sim::am {

class SmuModel final : public BlockModel {
public:
  struct Message {
    bool debug = false;
    std::uint32_t msg = 0, arg = 0, response = 0, result = 0;
  };

  explicit SmuModel(FakeGpu &gpu);
  std::string name() const override { return "smu"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  void clear_faults() override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  void set_running(bool on) { running_ = on; }
  bool running() const { return running_; }
  // DPM levels of a clock (by firmware clock id) in MHz.
  std::vector<std::uint32_t> levels(std::uint32_t clock) const;
  // Soft min/max in MHz per clock id (0xFFFF unconstrained; absent = never set).
  const std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> &soft_limits() const {
    return soft_;
  }
  std::uint32_t ppt_limit() const { return ppt_; }
  bool features_enabled() const { return features_; }
  std::uint64_t driver_table() const { return driver_table_; }
  const std::vector<Message> &messages() const { return messages_; }

private:
  void on_message(bool debug, std::uint32_t msg);
  std::uint32_t handle(bool debug, std::uint32_t msg, std::uint32_t arg, std::uint32_t &result);
  void write_metrics();
  const FaultRequest *fault_for(const std::string &kind, bool debug, std::uint32_t msg);

  FakeGpu &gpu_;
  hw::am::SmuIds ids_;
  RegisterKey msg_ = 0, arg_ = 0, resp_ = 0, dbg_msg_ = 0, dbg_arg_ = 0, dbg_resp_ = 0;
  bool running_ = false, features_ = false;
  std::uint64_t driver_table_ = 0;
  std::uint32_t ppt_ = 0;
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> soft_;
  std::vector<Message> messages_;
  std::uint64_t message_count_ = 0;
  std::vector<FaultRequest> faults_;
  struct Pending {
    RegisterKey arg_key = 0;
    std::uint32_t result = 0, response = 0;
    Clock::TimePoint ready_at{};
  };
  std::map<RegisterKey, Pending> pending_;  // by response register
};

}  // namespace wavescope::hw::sim::am
