#include "sim/navi31_board.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using namespace navi31;

namespace {

bool in_rom_sw(std::uint32_t offset) { return offset >= kRomSwCntl && offset < kRomSwDataEnd; }
bool is_psp(std::uint32_t offset) {
  return offset == kPspCommand || offset == kPspData || offset == kPspDoorbell ||
         offset == kPspSosAlive || offset == kPspBootLoader;
}
bool modelled(std::uint32_t offset) {
  return (offset >= kRomCntl && offset <= kRomStart) || in_rom_sw(offset) ||
         (offset >= kGpioPadSwIntStat && offset <= kGpioPadY) || is_psp(offset);
}

// The registers whose value at the start of a run must be back at its end (I1).
constexpr std::uint32_t kRestoredRegisters[] = {kGpioPadMask,    kGpioPadA, kGpioPadEn,
                                                kPageMirrorCntl, kRomCntl,  kRomIndex};

const char *register_name(std::uint32_t offset) {
  switch (offset) {
  case kGpioPadMask: return "GPIOPAD_MASK";
  case kGpioPadA: return "GPIOPAD_A";
  case kGpioPadEn: return "GPIOPAD_EN";
  case kPageMirrorCntl: return "PAGE_MIRROR_CNTL";
  case kRomCntl: return "ROM_CNTL";
  case kRomIndex: return "ROM_INDEX";
  default: return "register";
  }
}

}  // namespace

const char *to_string(BoardState state) {
  switch (state) {
  case BoardState::Bricked: return "bricked";
  case BoardState::Booted: return "booted";
  case BoardState::Sos: return "sos";
  case BoardState::Updated: return "updated";
  case BoardState::Offline: return "offline";
  }
  return "?";
}

std::optional<BoardState> parse_board_state(const std::string &text) {
  for (auto s : {BoardState::Bricked, BoardState::Booted, BoardState::Sos, BoardState::Updated,
                 BoardState::Offline})
    if (text == to_string(s)) return s;
  return std::nullopt;
}

Navi31Board::Navi31Board(RestoreTag, SimConfig config, Clock &clock,
                         std::vector<std::uint8_t> flash)
    : config_(std::move(config)), clock_(clock), random_(config_.seed),
      chip_(config_, faults_, random_, activity_),
      engine_(config_, chip_, faults_, random_, activity_),
      psp_(config_, chip_, faults_, random_, activity_) {
  if (flash.size() != kFlashSize)
    throw Error(ErrorKind::BadInput,
                fmt::format("simulated flash must be {} bytes, got {}", kFlashSize, flash.size()));
  chip_.array() = std::move(flash);
  chip_.on_power_loss([this] { go_offline("power loss during a flash operation"); });
}

Navi31Board::Navi31Board(SimConfig config, Clock &clock, std::vector<std::uint8_t> flash)
    : Navi31Board(RestoreTag{}, std::move(config), clock, std::move(flash)) {
  power_cycle();
}

void Navi31Board::reset_registers() {
  registers_.clear();
  const std::uint32_t pads = config_.profile == Profile::Strict ? kGpioSpiPads : 0;
  registers_[kRomCntl] = 0x00000001;
  registers_[kPageMirrorCntl] = 0;
  registers_[kGpioPadMask] = pads;
  registers_[kGpioPadA] = pads;
  registers_[kGpioPadEn] = pads;
  rom_index_ = 0;
  engine_.reset();
}

void Navi31Board::apply_state() {
  const bool ungated = config_.force_ungated;
  switch (state_) {
  case BoardState::Bricked:
    engine_.set_gate(EngineGate::Open);
    psp_.reset(config_.bricked_mailbox == BrickedMailbox::Dead ? PspMode::Dead : PspMode::Early,
               booted_slot_.value_or(Slot::A));
    break;
  case BoardState::Booted:
    engine_.set_gate(ungated ? EngineGate::Open : EngineGate::Sticky);
    psp_.reset(PspMode::Early, booted_slot_.value_or(Slot::A));
    break;
  case BoardState::Sos:
    engine_.set_gate(ungated ? EngineGate::Open : EngineGate::Silent);
    psp_.reset(PspMode::Sos, booted_slot_.value_or(Slot::A));
    break;
  case BoardState::Updated:
    engine_.set_gate(ungated ? EngineGate::Open : EngineGate::Sticky);
    break;
  case BoardState::Offline: break;
  }
}

void Navi31Board::power_cycle() {
  chip_.power_cycle(clock_.now());
  if (psp_.commits() > 0) preferred_slot_ = psp_.next_boot_slot();
  reset_registers();
  config_space_.reset();
  offline_reason_.clear();
  booted_slot_ = bootable_slot(chip_.array(), preferred_slot_);
  state_ = booted_slot_ ? BoardState::Booted : BoardState::Bricked;
  apply_state();
}

void Navi31Board::load_driver() {
  if (state_ != BoardState::Booted)
    throw Error(ErrorKind::State, fmt::format("cannot load a driver: the simulated board is {} "
                                              "(the PSP secure OS starts only on a booted board)",
                                              to_string(state_)));
  state_ = BoardState::Sos;
  apply_state();
}

void Navi31Board::link_down() { go_offline("PCIe link down"); }

void Navi31Board::go_offline(std::string reason) {
  state_ = BoardState::Offline;
  offline_reason_ = std::move(reason);
}

void Navi31Board::force_state(BoardState state) {
  if (state == BoardState::Offline) {
    go_offline("forced offline");
    return;
  }
  if (state == BoardState::Updated)
    throw Error(ErrorKind::Usage, "the updated state is reached by a PSP transfer, not forced");
  if (state != BoardState::Bricked && !booted_slot_) booted_slot_ = Slot::A;
  state_ = state;
  apply_state();
}

void Navi31Board::arm_fault(Fault fault) {
  if (fault.kind == FaultKind::Protection) chip_.preset_status(fault.sr1, fault.sr2);
  faults_.arm(std::move(fault));
}

bool Navi31Board::rom_readable() const {
  if (!config_.rom_present) return false;
  for (const auto &f : faults_.all())
    if (f.kind == FaultKind::Aperture && f.mode == "absent") return false;
  return true;
}

LaunchConditions Navi31Board::launch_conditions() const {
  const auto reg = [&](std::uint32_t o) {
    auto it = registers_.find(o);
    return it == registers_.end() ? 0u : it->second;
  };
  LaunchConditions c;
  c.pins_released = ((reg(kGpioPadMask) | reg(kGpioPadA) | reg(kGpioPadEn)) & kGpioSpiPads) == 0;
  c.rom_cntl_ready = (reg(kRomCntl) & 0xF) == kRomCntlTransactionNibble;
  c.page_mirror_ready =
      (reg(kPageMirrorCntl) & kPageMirrorTransactionMask) == kPageMirrorTransactionBits;
  return c;
}

std::uint32_t Navi31Board::config_read(std::uint32_t offset, unsigned width) {
  if (state_ == BoardState::Offline) return 0xFFFFFFFF;
  return config_space_.read(offset, width);
}

void Navi31Board::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  if (state_ == BoardState::Offline) return;
  config_space_.write(offset, value, width);
}

void Navi31Board::note_access(bool write, std::uint32_t offset, std::uint32_t value) {
  ++bar5_accesses_;
  const auto now = clock_.now();
  // I5: a ROM_DATA read inside a burst shows up as its neighbour read at the same instant
  // (a transport advances the clock once per operation, not per dword).
  if (!write && !in_block_read_ && now == last_access_time_ && last_was_read_ &&
      ((offset == kRomData + 4 && last_read_offset_ == kRomData) ||
       (offset == kRomData && last_read_offset_ == kRomData - 4)))
    activity_.record("I5", "ROM_DATA (0x5A394) read as part of a multi-dword block read");
  last_access_time_ = now;
  last_was_read_ = !write;
  last_read_offset_ = offset;
  if (trace_on_) trace_.push_back({now.time_since_epoch().count(), write, offset, value});
}

std::uint32_t Navi31Board::read_register(std::uint32_t offset) {
  const auto now = clock_.now();
  if (offset == kRomCntl) return rom_readable() ? registers_[kRomCntl] : kAllOnes;
  if (offset == kRomIndex) return rom_index_;
  if (offset == kRomData) {
    if (!rom_readable()) return kAllOnes;
    std::uint32_t size = config_.aperture_size;
    for (const auto &f : faults_.all())
      if (f.kind == FaultKind::Aperture && f.mode == "mirror") size = 0x100000;
    std::uint8_t bytes[4];
    chip_.aperture_read(now, rom_index_ % size, bytes);
    rom_index_ = (rom_index_ + 4) & 0xFFFFFF;
    return std::uint32_t{bytes[0]} | (std::uint32_t{bytes[1]} << 8) |
           (std::uint32_t{bytes[2]} << 16) | (std::uint32_t{bytes[3]} << 24);
  }
  if (in_rom_sw(offset)) return engine_.read(offset, now);
  if (is_psp(offset)) return psp_.read(offset, now);
  if (!modelled(offset)) unmodelled_.insert(offset);
  auto it = registers_.find(offset);
  return it == registers_.end() ? 0 : it->second;
}

void Navi31Board::write_register(std::uint32_t offset, std::uint32_t value) {
  const auto now = clock_.now();
  if (offset == kRomIndex) {
    rom_index_ = value & 0xFFFFFF;
    return;
  }
  if (offset == kRomData) return;
  if (in_rom_sw(offset)) {
    engine_.write(offset, value, now, launch_conditions());
    return;
  }
  if (is_psp(offset)) {
    psp_.write(offset, value, now);
    if (psp_.transfer_done() && state_ == BoardState::Booted) {
      state_ = BoardState::Updated;
      apply_state();
    }
    return;
  }
  if (!modelled(offset)) unmodelled_.insert(offset);
  registers_[offset] = value;
}

std::uint32_t Navi31Board::register_value(std::uint32_t offset) {
  if (offset == kRomIndex) return rom_index_;
  if (offset == kRomData) return 0;
  if (in_rom_sw(offset) || is_psp(offset)) return read_register(offset);
  auto it = registers_.find(offset);
  return it == registers_.end() ? 0 : it->second;
}

std::uint32_t Navi31Board::bar_read32(unsigned bar, std::uint64_t offset) {
  if (state_ == BoardState::Offline) return kAllOnes;
  if (bar != kRegisterBar) return 0;  // VRAM and doorbells are not modelled
  if (offset >= kBar5Size || offset % 4) return kAllOnes;
  for (auto *f : faults_.of(FaultKind::LinkDown)) {
    if (f->hit(random_)) {
      link_down();
      return kAllOnes;
    }
  }
  const auto o = static_cast<std::uint32_t>(offset);
  const std::uint32_t value = read_register(o);
  note_access(false, o, value);
  return state_ == BoardState::Offline ? kAllOnes : value;
}

void Navi31Board::bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) {
  if (state_ == BoardState::Offline || bar != kRegisterBar) return;
  if (offset >= kBar5Size || offset % 4) return;
  for (auto *f : faults_.of(FaultKind::LinkDown)) {
    if (f->hit(random_)) {
      link_down();
      return;
    }
  }
  const auto o = static_cast<std::uint32_t>(offset);
  note_access(true, o, value);
  write_register(o, value);
}

std::vector<std::uint32_t> Navi31Board::bar_read_block(unsigned bar, std::uint64_t offset,
                                                       std::size_t dwords) {
  if (dwords > 1 && bar == kRegisterBar && offset <= kRomData && offset + 4 * dwords > kRomData &&
      state_ != BoardState::Offline)
    activity_.record("I5", fmt::format("ROM_DATA (0x5A394) read inside a {}-dword block read at "
                                       "0x{:05X}",
                                       dwords, offset));
  std::vector<std::uint32_t> out;
  out.reserve(dwords);
  in_block_read_ = true;  // flagged above already; the per-dword heuristic stays quiet
  for (std::size_t i = 0; i < dwords; ++i) out.push_back(bar_read32(bar, offset + 4 * i));
  in_block_read_ = false;
  return out;
}

void Navi31Board::begin_run(RunExpectations expectations) {
  expectations_ = expectations;
  activity_.reset();
  trace_.clear();
  run_snapshot_.clear();
  for (auto offset : kRestoredRegisters) run_snapshot_[offset] = register_value(offset);
}

std::vector<Finding> Navi31Board::end_run() {
  std::vector<Finding> findings;
  const auto now = clock_.now();
  if (state_ == BoardState::Offline) {
    findings.push_back({"note", "board offline (" + offline_reason_ + "): I1 and I2 not checked"});
  } else {
    for (const auto &[offset, value] : run_snapshot_) {
      const std::uint32_t current = register_value(offset);
      if (current != value)
        findings.push_back(
            {"I1", fmt::format("{} (0x{:05X}) is 0x{:08X} at exit, was 0x{:08X} at start",
                               register_name(offset), offset, current, value)});
    }
    if (chip_.busy(now))
      findings.push_back({"I2", "a flash operation is still in progress at exit (WIP set)"});
    if (chip_.write_enabled())
      findings.push_back({"I2", "the flash write-enable latch (WEL) is still set at exit"});
  }
  const auto &a = activity_;
  if (expectations_.read_only && (a.erases || a.programs || a.status_writes || a.start_transfers))
    findings.push_back(
        {"I3", fmt::format("read-only command issued {} erases, {} programs, {} "
                           "status writes, {} START_TRANSFERs",
                           a.erases, a.programs, a.status_writes, a.start_transfers)});
  for (const auto &line : activity_.unread_sectors())
    findings.push_back({"I4", "at exit, " + line});
  if (a.protection_changed && !expectations_.protection_change_allowed)
    findings.push_back({"I7", "protection bits changed without the clear-protection gate"});
  engine_.check_done_observed();
  for (const auto &f : activity_.findings()) findings.push_back(f);
  return findings;
}

nlohmann::json Navi31Board::save() const {
  nlohmann::json registers = nlohmann::json::object();
  for (const auto &[offset, value] : registers_) registers[fmt::format("0x{:05X}", offset)] = value;
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_.all()) faults.push_back(to_json(f));
  return {{"format", 1},
          {"config", to_json(config_)},
          {"state", to_string(state_)},
          {"booted_slot", booted_slot_ ? static_cast<int>(*booted_slot_) : -1},
          {"preferred_slot", static_cast<int>(preferred_slot_)},
          {"offline_reason", offline_reason_},
          {"registers", registers},
          {"rom_index", rom_index_},
          {"random", random_.state()},
          {"faults", faults},
          {"chip", chip_.save()},
          {"engine", engine_.save()},
          {"psp", psp_.save()},
          {"unmodelled", unmodelled_},
          {"time_ns", clock_.now().time_since_epoch().count()}};
}

std::unique_ptr<Navi31Board> Navi31Board::load(const nlohmann::json &j, Clock &clock,
                                               std::vector<std::uint8_t> flash) {
  try {
    auto board = std::unique_ptr<Navi31Board>(
        new Navi31Board(RestoreTag{}, config_from_json(j.at("config")), clock, std::move(flash)));
    board->state_ =
        parse_board_state(j.at("state").get<std::string>()).value_or(BoardState::Bricked);
    const int slot = j.at("booted_slot");
    if (slot >= 0) board->booted_slot_ = static_cast<Slot>(slot);
    board->preferred_slot_ = static_cast<Slot>(j.at("preferred_slot").get<int>());
    board->offline_reason_ = j.value("offline_reason", "");
    for (const auto &[key, value] : j.at("registers").items())
      board->registers_[static_cast<std::uint32_t>(std::stoul(key, nullptr, 16))] = value;
    board->rom_index_ = j.at("rom_index");
    board->random_.set_state(j.at("random"));
    for (const auto &f : j.at("faults")) board->faults_.arm(fault_from_json(f));
    board->chip_.load(j.at("chip"));
    board->engine_.load(j.at("engine"));
    board->psp_.load(j.at("psp"));
    board->unmodelled_ = j.value("unmodelled", std::set<std::uint32_t>{});
    const bool ungated = board->config_.force_ungated;
    switch (board->state_) {
    case BoardState::Bricked: board->engine_.set_gate(EngineGate::Open); break;
    case BoardState::Booted:
    case BoardState::Updated:
      board->engine_.set_gate(ungated ? EngineGate::Open : EngineGate::Sticky);
      break;
    case BoardState::Sos:
      board->engine_.set_gate(ungated ? EngineGate::Open : EngineGate::Silent);
      break;
    case BoardState::Offline: break;
    }
    return board;
  } catch (const Error &) {
    throw;
  } catch (const std::exception &e) {
    throw Error(ErrorKind::BadInput, std::string("simulated board state is damaged: ") + e.what());
  }
}

}  // namespace wavescope::hw::sim
