#pragma once
// The simulated Navi31 board (navi31-flash.md §10): a PCIe endpoint whose BAR5 holds the SMUIO
// ROM_SW engine, the GPIO pads, the ROM_INDEX/ROM_DATA aperture and the PSP mailbox, in front of
// a GD25LQ16E chip model; board states with their transitions; fault injection; a record of what
// a tool run did, checked against invariants I1–I7 at its end; and a JSON + binary state that a
// SimStore persists between commands.
//
// The board never owns time: every access reads the injected clock, and the transports advance
// that clock per operation (op_cost), so poll counts follow from the chip timings.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "fault/fault_plan.hpp"
#include "sim/board_activity.hpp"
#include "sim/boot_rules.hpp"
#include "sim/gd25_flash_model.hpp"
#include "sim/psp_mailbox_model.hpp"
#include "sim/rom_sw_engine_model.hpp"
#include "sim/sim_config.hpp"
#include "wavescope/hw/sim/board_state.hpp"
#include "wavescope/hw/sim/run_check.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pcie_config_space.hpp"
#include "wavescope/hw/transport/pcie_endpoint_model.hpp"

namespace wavescope::hw::sim {

// One recorded BAR5 access (§10.11 observability).
struct BoardTraceEntry {
  std::int64_t time_ns = 0;
  bool write = false;
  std::uint32_t offset = 0;
  std::uint32_t value = 0;
};

class Navi31Board final : public PcieEndpointModel {
public:
  // A new board: the flash holds `flash` (2 MiB) and the board powers on (BRICKED unless the
  // image is bootable, then BOOTED).
  Navi31Board(SimConfig config, Clock &clock, std::vector<std::uint8_t> flash);

  // PcieEndpointModel
  std::uint32_t config_read(std::uint32_t offset, unsigned width) override;
  void config_write(std::uint32_t offset, std::uint32_t value, unsigned width) override;
  std::uint32_t bar_read32(unsigned bar, std::uint64_t offset) override;
  void bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) override;
  bool link_up() const override { return state_ != BoardState::Offline; }
  // A multi-dword read as one burst: lets the board see (and flag, I5) a ROM_DATA burst.
  std::vector<std::uint32_t> bar_read_block(unsigned bar, std::uint64_t offset, std::size_t dwords);

  // State and transitions (§10.8).
  BoardState state() const { return state_; }
  // Power off and on: BOOTED if the flash is bootable, else BRICKED.
  void power_cycle();
  // After a power loss (F11) or a link loss: same as power_cycle().
  void power_restore() { power_cycle(); }
  // A driver initialises the PSP secure OS: BOOTED → SOS.
  void load_driver();
  void link_down();
  // Test and `sim create` helper: put the board in a state regardless of its flash (e.g.
  // BRICKED with a bootable image, as if the PBL stalled).
  void force_state(BoardState state);
  std::optional<Slot> booted_slot() const { return booted_slot_; }
  std::string offline_reason() const { return offline_reason_; }

  // Arms a fault; state-like faults (protection, ...) take effect at once.
  void arm_fault(Fault fault);
  FaultPlan &faults() { return faults_; }
  const SimConfig &config() const { return config_; }
  SimConfig &mutable_config() { return config_; }

  // The chip's bytes as the array holds them ("behind the tools' back"), with any operation
  // whose time has come applied.
  const std::vector<std::uint8_t> &flash() {
    chip_.settle(clock_.now());
    return chip_.array();
  }
  std::vector<std::uint8_t> &mutable_flash() { return chip_.array(); }
  Gd25FlashModel &chip() { return chip_; }
  std::uint8_t sr1() { return chip_.sr1(clock_.now()); }
  std::uint8_t sr2() const { return chip_.sr2(); }
  std::uint8_t sr3() const { return chip_.sr3(); }
  std::uint32_t register_value(std::uint32_t offset);  // without side effects where possible
  const PcieConfigSpace &config_space() const { return config_space_; }
  PcieConfigSpace &config_space() { return config_space_; }
  PspMailboxModel &psp() { return psp_; }

  // One tool run: snapshot at its start, findings (I1–I7, protocol) at its end.
  void begin_run(RunExpectations expectations);
  std::vector<Finding> end_run();
  const BoardActivity &activity() const { return activity_; }
  void enable_trace(bool on) { trace_on_ = on; }
  const std::vector<BoardTraceEntry> &trace() const { return trace_; }
  const std::set<std::uint32_t> &unmodelled_offsets() const { return unmodelled_; }
  std::uint64_t bar5_accesses() const { return bar5_accesses_; }

  // Persistence: everything but the flash bytes (those travel separately).
  nlohmann::json save() const;
  static std::unique_ptr<Navi31Board> load(const nlohmann::json &json, Clock &clock,
                                           std::vector<std::uint8_t> flash);

private:
  struct RestoreTag {};
  Navi31Board(RestoreTag, SimConfig config, Clock &clock, std::vector<std::uint8_t> flash);
  void reset_registers();
  void apply_state();
  void go_offline(std::string reason);
  std::uint32_t read_register(std::uint32_t offset);
  void write_register(std::uint32_t offset, std::uint32_t value);
  LaunchConditions launch_conditions() const;
  void note_access(bool write, std::uint32_t offset, std::uint32_t value);
  bool rom_readable() const;

  SimConfig config_;
  Clock &clock_;
  SimRandom random_;
  FaultPlan faults_;
  BoardActivity activity_;
  Gd25FlashModel chip_;
  RomSwEngineModel engine_;
  PspMailboxModel psp_;
  PcieConfigSpace config_space_{navi31_pcie_identity()};

  BoardState state_ = BoardState::Bricked;
  std::optional<Slot> booted_slot_;
  Slot preferred_slot_ = Slot::A;
  std::string offline_reason_;
  std::map<std::uint32_t, std::uint32_t> registers_;  // plain storage (incl. ROM_CNTL, GPIO)
  std::uint32_t rom_index_ = 0;
  std::set<std::uint32_t> unmodelled_;

  // Run bookkeeping.
  RunExpectations expectations_;
  std::map<std::uint32_t, std::uint32_t> run_snapshot_;
  bool trace_on_ = false;
  std::vector<BoardTraceEntry> trace_;
  std::uint64_t bar5_accesses_ = 0;
  Clock::TimePoint last_access_time_{};
  std::uint32_t last_read_offset_ = 0;
  bool last_was_read_ = false;
  bool in_block_read_ = false;
};

}  // namespace wavescope::hw::sim
