#include "sim/rom_sw_engine_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using namespace navi31;

RomSwEngineModel::RomSwEngineModel(const SimConfig &config, Gd25FlashModel &chip, FaultPlan &faults,
                                   SimRandom &random, BoardActivity &activity)
    : config_(config), chip_(chip), faults_(faults), random_(random), activity_(activity) {}

EngineGate RomSwEngineModel::gate() const { return gated_by_fault_ ? EngineGate::Sticky : gate_; }

std::uint32_t RomSwEngineModel::read(std::uint32_t offset, TimePoint now) {
  settle(now);
  if (gate() == EngineGate::Sticky && offset == kRomSwStatus) return kRomSwStatusGated;
  switch (offset) {
  case kRomSwCntl: return cntl_;
  case kRomSwStatus:
    if (done_at_ && now >= *done_at_) {
      status_ |= kRomSwStatusDone;
      done_at_.reset();
    }
    if (status_ & kRomSwStatusDone) done_unobserved_ = false;
    return status_;
  case kRomSwCommand: return command_;
  case kRomSwGap: return gap_;
  default:
    if (offset >= kRomSwData1 && offset < kRomSwDataEnd) return data_[(offset - kRomSwData1) / 4];
    return 0;
  }
}

void RomSwEngineModel::write(std::uint32_t offset, std::uint32_t value, TimePoint now,
                             const LaunchConditions &conditions) {
  if (gate() == EngineGate::Sticky) return;  // a gated engine ignores every write
  settle(now);
  switch (offset) {
  case kRomSwCntl:
    if (done_unobserved_)
      activity_.record("I6", fmt::format("ROM_SW_CNTL written (0x{:08X}) before the previous "
                                         "launch's DONE was observed",
                                         value));
    cntl_ = value;
    launch(value, now, conditions);
    break;
  case kRomSwStatus:
    // A DONE whose time has come lands before the write (which may clear it).
    if (done_at_ && now >= *done_at_) done_at_.reset();
    if (done_unobserved_)
      activity_.record("I6", fmt::format("ROM_SW_STATUS written (0x{:08X}) before the previous "
                                         "launch's DONE was observed",
                                         value));
    status_ = value;
    break;
  case kRomSwCommand: command_ = value; break;
  case kRomSwGap: gap_ = value; break;
  default:
    if (offset >= kRomSwData1 && offset < kRomSwDataEnd) data_[(offset - kRomSwData1) / 4] = value;
    break;
  }
}

void RomSwEngineModel::load_window(const std::vector<std::uint8_t> &bytes, TimePoint now) {
  std::array<std::uint32_t, 64> window{};
  for (std::size_t i = 0; i < bytes.size() && i < 256; ++i)
    window[i / 4] |= std::uint32_t{bytes[i]} << (8 * (i % 4));
  // The window changes when the transaction completes: a hung one never delivers, a slow one
  // (sw_latency) only once DONE is set — reading it earlier shows the old contents.
  pending_window_.reset();
  if (!done_at_) return;
  if (*done_at_ > now)
    pending_window_ = window;
  else
    data_ = window;
}

void RomSwEngineModel::settle(TimePoint now) {
  if (pending_window_ && done_at_ && now >= *done_at_) {
    data_ = *pending_window_;
    pending_window_.reset();
  }
}

void RomSwEngineModel::launch(std::uint32_t cntl, TimePoint now,
                              const LaunchConditions &conditions) {
  ++activity_.launches;
  done_unobserved_ = true;
  for (auto *f : faults_.of(FaultKind::RomSwGate)) {
    if (f->hit(random_)) gated_by_fault_ = true;
  }
  if (gated_by_fault_) return;
  bool hang = gate_ == EngineGate::Silent;  // a silently gated engine never completes
  for (auto *f : faults_.of(FaultKind::RomSwHang)) hang |= f->hit(random_);
  done_at_ = hang ? std::nullopt : std::optional<TimePoint>(now + config_.sw_latency);
  if (gate_ == EngineGate::Silent) return;

  const bool strict = config_.profile == Profile::Strict;
  const unsigned address_bytes = (cntl >> kRomSwCntlCommandSizeShift) & 3;
  const bool rx = (cntl & kRomSwCntlRxEnable) != 0;
  std::size_t n = cntl & kRomSwCntlDataSizeMask;
  const auto opcode = static_cast<std::uint8_t>(command_ & 0xFF);
  if (strict && (cntl & kRomSwCntlReservedBit18))
    activity_.record("protocol",
                     fmt::format("reserved bit 18 set in ROM_SW_CNTL 0x{:08X} (RX enable "
                                 "is bit 19 on Navi31)",
                                 cntl));
  if (n > kMaxTransferBytes) {
    activity_.record("protocol",
                     fmt::format("ROM_SW_CNTL 0x{:08X} asks for {} data bytes (max 256)", cntl, n));
    if (strict) return;  // failed transaction, DATA untouched
    n = kMaxTransferBytes;
  }
  std::vector<std::uint8_t> capture;
  const bool set_up =
      conditions.pins_released && conditions.rom_cntl_ready && conditions.page_mirror_ready;
  if (strict && !set_up) {
    activity_.record(
        "protocol",
        fmt::format("ROM_SW launch of opcode 0x{:02X} without the transaction set-up "
                    "({}{}{}): no SPI traffic",
                    opcode, conditions.pins_released ? "" : "GPIO pads 7-10 not released ",
                    conditions.rom_cntl_ready ? "" : "ROM_CNTL[3:0] != 0x8 ",
                    conditions.page_mirror_ready ? "" : "PAGE_MIRROR_CNTL[27:25] != 0b011"));
    if (rx) capture.assign(n, 0xFF);
  } else {
    std::vector<std::uint8_t> mosi;
    mosi.push_back(opcode);
    for (unsigned i = 0; i < address_bytes; ++i)
      mosi.push_back(static_cast<std::uint8_t>(command_ >> (24 - 8 * i)));
    if (!rx) {
      for (std::size_t i = 0; i < n; ++i)
        mosi.push_back(static_cast<std::uint8_t>(data_[i / 4] >> (24 - 8 * (i % 4))));
    }
    capture = chip_.frame(now, mosi, rx ? n : 0);
  }
  if (rx) {
    if (config_.rx_lag == 0) {
      load_window(capture, now);
    } else {
      load_window(shadow_, now);
    }
    shadow_ = std::move(capture);
  } else if (config_.rx_lag_trigger == RxLagTrigger::Any && config_.rx_lag != 0) {
    load_window(shadow_, now);
  }
}

void RomSwEngineModel::reset() {
  cntl_ = status_ = command_ = gap_ = 0;
  data_.fill(0);
  shadow_.clear();
  done_at_.reset();
  pending_window_.reset();
  done_unobserved_ = false;
  gated_by_fault_ = false;
}

void RomSwEngineModel::check_done_observed() {
  if (done_unobserved_)
    activity_.record("I6", "the last ROM_SW launch's DONE was never observed by a STATUS read");
}

nlohmann::json RomSwEngineModel::save() const {
  nlohmann::json j = {{"cntl", cntl_},
                      {"status", status_},
                      {"command", command_},
                      {"gap", gap_},
                      {"data", data_},
                      {"shadow", shadow_},
                      {"done_unobserved", done_unobserved_},
                      {"gated_by_fault", gated_by_fault_}};
  if (done_at_) j["done_at_ns"] = done_at_->time_since_epoch().count();
  if (pending_window_) j["pending_window"] = *pending_window_;
  return j;
}

void RomSwEngineModel::load(const nlohmann::json &j) {
  cntl_ = j.at("cntl");
  status_ = j.at("status");
  command_ = j.at("command");
  gap_ = j.value("gap", 0u);
  data_ = j.at("data").get<std::array<std::uint32_t, 64>>();
  shadow_ = j.at("shadow").get<std::vector<std::uint8_t>>();
  done_unobserved_ = j.value("done_unobserved", false);
  gated_by_fault_ = j.value("gated_by_fault", false);
  done_at_.reset();
  if (j.contains("done_at_ns"))
    done_at_ = TimePoint(Clock::Duration(j["done_at_ns"].get<std::int64_t>()));
  pending_window_.reset();
  if (j.contains("pending_window"))
    pending_window_ = j["pending_window"].get<std::array<std::uint32_t, 64>>();
}

}  // namespace wavescope::hw::sim
