#pragma once
// The simulated GD25LQ16E SPI flash (navi31-flash.md §10.5): a 2 MiB array, SR1/SR2/SR3 with
// non-volatile and volatile copies, WEL and WIP, block protection, busy time on the virtual
// clock, SFDP, and the chip-level faults F1–F5, F8–F11.
//
// Each ROM_SW launch is one CS-low…CS-high frame. Write-type commands need exact framing (as
// GD25/W25 datasheets require CS# to rise right after the last required byte); read-type
// commands stream on for as many bytes as are clocked. Erase and program results land when the
// operation completes, evaluated lazily against the clock.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fault/fault_plan.hpp"
#include "sim/board_activity.hpp"
#include "sim/sim_config.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::sim {

class Gd25FlashModel {
public:
  using TimePoint = Clock::TimePoint;

  Gd25FlashModel(const SimConfig &config, FaultPlan &faults, SimRandom &random,
                 BoardActivity &activity);

  // One frame: `mosi` is the opcode and every byte the host sent after it; `rx` bytes are then
  // clocked in. Returns what the chip drove during those rx clocks (0xFF where it drives nothing).
  std::vector<std::uint8_t> frame(TimePoint now, std::span<const std::uint8_t> mosi,
                                  std::size_t rx);

  // The ROM aperture's direct view of the array (bypasses WIP; an erase in progress shows as
  // erased over its elapsed fraction). Applies read bit flips (F1).
  void aperture_read(TimePoint now, std::uint32_t address, std::span<std::uint8_t> out);

  // The simulated PSP firmware's sector read-modify-write (erase + program of what changed), so
  // protection and faults apply to it too. Returns false when the chip refused or failed.
  bool firmware_write(TimePoint now, std::uint32_t address, std::span<const std::uint8_t> bytes);

  // Completes an operation whose time has come.
  void settle(TimePoint now);
  bool busy(TimePoint now);
  bool write_enabled() const { return wel_; }
  std::uint8_t sr1(TimePoint now);
  std::uint8_t sr2() const { return sr2_; }
  std::uint8_t sr3() const { return sr3_; }
  // Sets the status registers directly (fault F9, `sim create --cmp`), volatile and non-volatile.
  void preset_status(std::uint8_t sr1, std::uint8_t sr2);

  std::vector<std::uint8_t> &array() { return array_; }
  const std::vector<std::uint8_t> &array() const { return array_; }

  // Power cycle: volatile state resets (WEL, volatile SR copies, deep power-down); an operation
  // that can never finish (F4) is abandoned without changing the array; one still running is cut
  // as a power loss cuts it.
  void power_cycle(TimePoint now);
  // Called when an F11 power loss fires (the board goes OFFLINE).
  void on_power_loss(std::function<void()> callback) { power_lost_ = std::move(callback); }

  // Persistence of everything but the array.
  nlohmann::json save() const;
  void load(const nlohmann::json &json);

private:
  enum class OpKind { Erase, Program, StatusWrite };
  struct PendingOp {
    OpKind kind = OpKind::Erase;
    std::uint32_t address = 0;
    std::vector<std::uint8_t> result;  // the bytes at address when the op completes
    TimePoint start{}, end{};
    bool never_ends = false;
    std::uint8_t sr1 = 0, sr2 = 0, sr3 = 0;  // StatusWrite: the new values
  };

  std::uint8_t out_byte(std::uint8_t opcode, std::span<const std::uint8_t> after, std::size_t pos);
  std::uint8_t read_array(std::uint32_t address);
  void write_status(TimePoint now, std::optional<std::uint8_t> sr1, std::optional<std::uint8_t> sr2,
                    std::optional<std::uint8_t> sr3);
  void erase(TimePoint now, std::uint32_t address, std::uint32_t size, bool firmware = false);
  void program(TimePoint now, std::uint32_t address, std::span<const std::uint8_t> data,
               bool firmware = false);
  // Starts an operation; handles F4 (stuck busy), F5 (slow) and F11 (power loss). False when a
  // power loss cut it.
  bool start(TimePoint now, PendingOp op, std::chrono::nanoseconds duration, bool firmware);
  void complete(PendingOp &op);
  void cut_by_power_loss(PendingOp &op, TimePoint now);
  bool locked() const;
  bool range_protected(std::uint32_t address, std::uint32_t size) const;
  std::uint32_t jedec_id() const;

  const SimConfig &config_;
  FaultPlan &faults_;
  SimRandom &random_;
  BoardActivity &activity_;
  std::function<void()> power_lost_;

  std::vector<std::uint8_t> array_;
  std::uint8_t sr1_ = 0, sr2_ = 0, sr3_ = 0;           // current (volatile copies)
  std::uint8_t nv_sr1_ = 0, nv_sr2_ = 0, nv_sr3_ = 0;  // non-volatile
  bool wel_ = false;
  bool volatile_sr_write_ = false;  // after 0x50
  bool deep_power_down_ = false;
  bool reset_enabled_ = false;  // after 0x66
  bool lost_power_ = false;     // an F11 power loss cut an operation (until power_cycle)
  std::optional<PendingOp> pending_;
  std::vector<std::uint8_t> sfdp_;
};

}  // namespace wavescope::hw::sim
