#pragma once
// The simulated PSP mailbox (navi31-flash.md §10.7): C2PMSG_115 command/status, _116 data, _73
// doorbell, _81 SOS alive. In the early (pre-SOS) state it runs the IFWI recovery transfer state
// machine — REQ(k) → START → DATA… → END → REQ(k+1), and at the phase-2 item a commit that
// writes the streamed items back to the flash through the chip model. A bricked board's mailbox
// is dead; in SOS the early commands are rejected with 0x0A.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fault/fault_plan.hpp"
#include "sim/board_activity.hpp"
#include "sim/boot_rules.hpp"
#include "sim/gd25_flash_model.hpp"
#include "sim/sim_config.hpp"

namespace wavescope::hw::sim {

enum class PspMode { Dead, Early, Sos };

class PspMailboxModel {
public:
  using TimePoint = Clock::TimePoint;

  PspMailboxModel(const SimConfig &config, Gd25FlashModel &chip, FaultPlan &faults,
                  SimRandom &random, BoardActivity &activity);

  std::uint32_t read(std::uint32_t offset, TimePoint now);
  void write(std::uint32_t offset, std::uint32_t value, TimePoint now);

  // Power-on: REQ(0), nothing stored.
  void reset(PspMode mode, Slot booted_slot);
  PspMode mode() const { return mode_; }
  // True once a terminal END committed (the board is then UPDATED).
  bool transfer_done() const { return state_ == State::Done; }
  // The slot the last commit selected for the next boot.
  Slot next_boot_slot() const { return next_slot_; }
  std::uint32_t commits() const { return commit_counter_; }

  nlohmann::json save() const;
  void load(const nlohmann::json &json);

private:
  enum class State { Request, Receive, Done };
  struct Result {
    std::uint16_t error = 0;
    std::optional<std::uint32_t> response;
  };
  void complete_pending(TimePoint now);
  Result execute(std::uint8_t command, std::uint32_t argument, TimePoint now);
  Result execute_early(std::uint8_t command, std::uint32_t argument, TimePoint now);
  Result execute_sos(std::uint8_t command, std::uint32_t argument, TimePoint now);
  bool structurally_valid(std::uint8_t item, const std::vector<std::uint8_t> &payload) const;
  bool commit(TimePoint now);

  const SimConfig &config_;
  Gd25FlashModel &chip_;
  FaultPlan &faults_;
  SimRandom &random_;
  BoardActivity &activity_;

  PspMode mode_ = PspMode::Dead;
  std::uint32_t cmd_ = 0, data_ = 0;
  struct Pending {
    TimePoint at{};
    std::uint8_t command = 0;
    Result result;
    bool never = false;
  };
  std::optional<Pending> pending_;

  State state_ = State::Request;
  std::size_t step_ = 0;  // k of REQ(k)
  std::uint8_t receiving_item_ = 0;
  std::uint32_t receiving_size_ = 0;
  std::vector<std::uint8_t> received_;
  std::map<std::uint8_t, std::vector<std::uint8_t>> stored_;
  Slot booted_slot_ = Slot::A;
  Slot next_slot_ = Slot::A;
  std::uint32_t commit_counter_ = 0;
  std::uint32_t live_address_lo_ = 0, live_address_hi_ = 0;
};

}  // namespace wavescope::hw::sim
