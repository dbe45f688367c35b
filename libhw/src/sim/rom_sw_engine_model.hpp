#pragma once
// The simulated SMUIO ROM_SW engine (navi31-flash.md §10.3): the host builds one SPI transaction
// in COMMAND / DATA_1..64 and launches it by writing ROM_SW_CNTL (any value, 0 included).
//
// The RX window lags one transaction: with rx_lag 1 an RX launch loads the window with the
// previous RX capture and keeps its own for the next one. TX payload bytes are taken from DATA
// big-endian per dword; RX window bytes are little-endian per dword. A gated engine (healthy
// boot) reads STATUS 0x04000800 and ignores writes (sticky) or never completes (silent).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fault/fault_plan.hpp"
#include "sim/board_activity.hpp"
#include "sim/gd25_flash_model.hpp"
#include "sim/sim_config.hpp"

namespace wavescope::hw::sim {

enum class EngineGate { Open, Sticky, Silent };

// Whether the set-up the reference performs around each launch was in effect (§10.3).
struct LaunchConditions {
  bool pins_released = true;      // GPIOPAD_MASK/A/EN bits 10:7 all clear
  bool rom_cntl_ready = true;     // ROM_CNTL low nibble 0x8
  bool page_mirror_ready = true;  // PAGE_MIRROR_CNTL bits 27:25 = 0b011
};

class RomSwEngineModel {
public:
  using TimePoint = Clock::TimePoint;

  RomSwEngineModel(const SimConfig &config, Gd25FlashModel &chip, FaultPlan &faults,
                   SimRandom &random, BoardActivity &activity);

  // Offsets are BAR5 byte offsets in [ROM_SW_CNTL, end of DATA_64).
  std::uint32_t read(std::uint32_t offset, TimePoint now);
  void write(std::uint32_t offset, std::uint32_t value, TimePoint now,
             const LaunchConditions &conditions);

  void set_gate(EngineGate gate) { gate_ = gate; }
  EngineGate gate() const;
  // Power-on state: registers, window and shadow zero.
  void reset();
  // I6 at the end of a run: the last launch's DONE must have been observed.
  void check_done_observed();

  nlohmann::json save() const;
  void load(const nlohmann::json &json);

private:
  void launch(std::uint32_t cntl, TimePoint now, const LaunchConditions &conditions);
  void load_window(const std::vector<std::uint8_t> &bytes, TimePoint now);
  void settle(TimePoint now);

  const SimConfig &config_;
  Gd25FlashModel &chip_;
  FaultPlan &faults_;
  SimRandom &random_;
  BoardActivity &activity_;

  std::uint32_t cntl_ = 0, status_ = 0, command_ = 0, gap_ = 0;
  std::array<std::uint32_t, 64> data_{};
  std::vector<std::uint8_t> shadow_;  // the last RX capture
  std::optional<TimePoint> done_at_;
  std::optional<std::array<std::uint32_t, 64>> pending_window_;  // shown once DONE is set
  bool done_unobserved_ = false;
  EngineGate gate_ = EngineGate::Open;
  bool gated_by_fault_ = false;  // F7
};

}  // namespace wavescope::hw::sim
