#include "sim/gd25_flash_model.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using namespace navi31;

namespace {

constexpr std::uint8_t kDeviceId = 0x14;  // REMS / 0xAB device id of a 16 Mbit GigaDevice part

// The synthetic SFDP table of §10.5 (JESD216 rev 1.6 style; not the real chip's).
std::vector<std::uint8_t> make_sfdp() {
  std::vector<std::uint8_t> t(256, 0xFF);
  const std::uint8_t header[] = {'S',  'F',  'D',  'P',  0x06, 0x01, 0x00, 0xFF,
                                 0x00, 0x06, 0x01, 0x10, 0x30, 0x00, 0x00, 0xFF};
  std::copy(std::begin(header), std::end(header), t.begin());
  const std::uint8_t bfpt[] = {0xE5, 0x20, 0xF9, 0xFF, 0xFF, 0xFF, 0xFF, 0x00};
  std::copy(std::begin(bfpt), std::end(bfpt), t.begin() + 0x30);
  return t;
}

bool filter_matches(ChipOpFilter filter, int kind) {
  // kind: 0 erase, 1 program, 2 status write
  switch (filter) {
  case ChipOpFilter::Any: return true;
  case ChipOpFilter::Erase: return kind == 0;
  case ChipOpFilter::Program: return kind == 1;
  case ChipOpFilter::Wrsr: return kind == 2;
  }
  return false;
}

std::uint32_t address_of(std::span<const std::uint8_t> after) {
  return (std::uint32_t{after[0]} << 16) | (std::uint32_t{after[1]} << 8) | after[2];
}

}  // namespace

Gd25FlashModel::Gd25FlashModel(const SimConfig &config, FaultPlan &faults, SimRandom &random,
                               BoardActivity &activity)
    : config_(config), faults_(faults), random_(random), activity_(activity),
      array_(kFlashSize, 0xFF), sfdp_(make_sfdp()) {}

std::uint32_t Gd25FlashModel::jedec_id() const {
  for (const auto &f : faults_.all())
    if (f.kind == FaultKind::WrongJedec) return f.jedec;
  return (std::uint32_t{config_.jedec[0]} << 16) | (std::uint32_t{config_.jedec[1]} << 8) |
         config_.jedec[2];
}

bool Gd25FlashModel::locked() const {
  for (const auto &f : faults_.all())
    if (f.kind == FaultKind::Protection && f.lock) return true;
  const bool srp0 = sr1_ & kSr1Srp0;
  const bool srp1 = sr2_ & kSr2Srp1;
  return srp1 || (srp0 && config_.wp_asserted);
}

bool Gd25FlashModel::range_protected(std::uint32_t address, std::uint32_t size) const {
  return protected_range(sr1_, sr2_, kFlashSize).intersects(address, size);
}

std::uint8_t Gd25FlashModel::sr1(TimePoint now) {
  settle(now);
  return static_cast<std::uint8_t>((sr1_ & 0xFC) | (wel_ ? kSr1Wel : 0) |
                                   (pending_ ? kSr1Busy : 0));
}

bool Gd25FlashModel::busy(TimePoint now) {
  settle(now);
  return pending_.has_value();
}

void Gd25FlashModel::preset_status(std::uint8_t sr1, std::uint8_t sr2) {
  sr1_ = nv_sr1_ = static_cast<std::uint8_t>(sr1 & 0xFC);
  sr2_ = nv_sr2_ = sr2;
}

void Gd25FlashModel::settle(TimePoint now) {
  if (pending_ && !pending_->never_ends && now >= pending_->end) {
    complete(*pending_);
    pending_.reset();
    wel_ = false;
  }
}

void Gd25FlashModel::complete(PendingOp &op) {
  switch (op.kind) {
  case OpKind::Erase:
  case OpKind::Program:
    std::copy(op.result.begin(), op.result.end(), array_.begin() + op.address);
    break;
  case OpKind::StatusWrite: {
    const std::uint8_t old1 = sr1_, old2 = sr2_;
    sr1_ = op.sr1;
    sr2_ = op.sr2;
    sr3_ = op.sr3;
    nv_sr1_ = sr1_;
    nv_sr2_ = sr2_;
    nv_sr3_ = sr3_;
    activity_.status_written(old1, old2, sr1_, sr2_);
    break;
  }
  }
}

void Gd25FlashModel::cut_by_power_loss(PendingOp &op, TimePoint /*now*/) {
  if (op.never_ends) return;  // a stuck operation never changed anything
  if (op.kind == OpKind::Erase) {
    // A seeded subset of the sector reaches 0xFF, the rest keeps its old value.
    for (std::size_t i = 0; i < op.result.size(); ++i)
      if (random_.below(2)) array_[op.address + i] = 0xFF;
  } else if (op.kind == OpKind::Program) {
    // A prefix of the page is programmed.
    const std::size_t prefix = op.result.empty() ? 0 : random_.below(op.result.size());
    std::copy(op.result.begin(), op.result.begin() + static_cast<std::ptrdiff_t>(prefix),
              array_.begin() + op.address);
  }
  // A status write that did not complete is discarded.
}

bool Gd25FlashModel::start(TimePoint now, PendingOp op, std::chrono::nanoseconds duration,
                           bool firmware) {
  const int kind = op.kind == OpKind::Erase ? 0 : op.kind == OpKind::Program ? 1 : 2;
  for (auto *f : faults_.of(FaultKind::SlowChip))
    duration = std::chrono::nanoseconds(static_cast<std::int64_t>(duration.count() * f->factor));
  op.start = now;
  op.end = now + duration;
  for (auto *f : faults_.of(FaultKind::PowerLoss)) {
    if (filter_matches(f->op, kind) && f->hit(random_)) {
      cut_by_power_loss(op, now);
      wel_ = false;
      lost_power_ = true;
      if (power_lost_) power_lost_();
      return false;
    }
  }
  for (auto *f : faults_.of(FaultKind::StuckBusy)) {
    if (filter_matches(f->op, kind) && f->hit(random_)) op.never_ends = true;
  }
  if (firmware) {
    // The firmware waits for its own operations; a stuck one fails the commit.
    if (op.never_ends) {
      pending_ = std::move(op);
      return false;
    }
    complete(op);
    wel_ = false;
    return true;
  }
  pending_ = std::move(op);
  return true;
}

void Gd25FlashModel::erase(TimePoint now, std::uint32_t address, std::uint32_t size,
                           bool firmware) {
  address = address / size * size % kFlashSize;
  if (!wel_ && !firmware) return;
  if (range_protected(address, size)) {
    if (config_.protected_clears_wel) wel_ = false;
    return;
  }
  if (!firmware) activity_.erase(address, size);
  PendingOp op;
  op.kind = OpKind::Erase;
  op.address = address;
  op.result.assign(size, 0xFF);
  // F2: chosen cells of a failing sector keep their old value (or are stuck at 0).
  for (auto *f : faults_.of(FaultKind::EraseFailure)) {
    const std::uint32_t sector_address = f->address * kSectorSize;
    if (sector_address < address || sector_address >= address + size) continue;
    if (!f->hit(random_)) continue;
    SimRandom cells(config_.seed ^ (0xE5A5Eull << 20) ^ f->address);
    for (unsigned k = 0; k < f->count; ++k) {
      const std::uint32_t offset = sector_address - address + cells.below(kSectorSize);
      op.result[offset] = f->stuck_at_zero ? 0x00 : array_[address + offset];
    }
  }
  // Block and chip erases take longer than a sector erase **[ASSUMPTION: ×4 and ×64]**.
  const auto duration = size == kFlashSize   ? config_.t_se * 64
                        : size > kSectorSize ? config_.t_se * 4
                                             : config_.t_se;
  start(now, std::move(op), duration, firmware);
}

void Gd25FlashModel::program(TimePoint now, std::uint32_t address,
                             std::span<const std::uint8_t> data, bool firmware) {
  if (!wel_ && !firmware) return;
  const std::uint32_t page = address / kPageSize * kPageSize % kFlashSize;
  if (range_protected(page, kPageSize)) {
    if (config_.protected_clears_wel) wel_ = false;
    return;
  }
  // Only the last 256 bytes count; bytes wrap within the page; programming only clears bits.
  if (data.size() > kPageSize) data = data.subspan(data.size() - kPageSize);
  PendingOp op;
  op.kind = OpKind::Program;
  op.address = page;
  op.result.assign(array_.begin() + page, array_.begin() + page + kPageSize);
  const std::uint32_t start_offset = address % kPageSize;
  std::vector<std::uint8_t> target(kPageSize, 0xFF);
  for (std::size_t i = 0; i < data.size(); ++i) target[(start_offset + i) % kPageSize] = data[i];
  for (std::size_t i = 0; i < kPageSize; ++i) op.result[i] &= target[i];
  // F3: some 1→0 transitions of a failing page do not happen.
  for (auto *f : faults_.of(FaultKind::ProgramFailure)) {
    if (f->address != page / kPageSize || !f->hit(random_)) continue;
    std::vector<unsigned> cleared;  // bit positions that go 1 → 0
    for (unsigned i = 0; i < kPageSize * 8; ++i) {
      const std::uint8_t old = array_[page + i / 8];
      if ((old >> (i % 8) & 1) && !(op.result[i / 8] >> (i % 8) & 1)) cleared.push_back(i);
    }
    for (unsigned k = 0; k < f->count && !cleared.empty(); ++k) {
      const std::size_t pick = random_.below(cleared.size());
      const unsigned bit = cleared[pick];
      op.result[bit / 8] = static_cast<std::uint8_t>(op.result[bit / 8] | (1u << (bit % 8)));
      cleared.erase(cleared.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  }
  if (!firmware) activity_.program(page, kPageSize);
  start(now, std::move(op), config_.t_pp, firmware);
}

void Gd25FlashModel::write_status(TimePoint now, std::optional<std::uint8_t> sr1,
                                  std::optional<std::uint8_t> sr2,
                                  std::optional<std::uint8_t> sr3) {
  auto merged1 = [&](std::uint8_t v) {
    return static_cast<std::uint8_t>((sr1_ & 0x03) | (v & 0xFC));
  };
  auto merged2 = [&](std::uint8_t v) {
    // QE, SRP1, CMP writable; LB bits only 0 → 1; SUS bits read-only.
    const std::uint8_t writable = kSr2Qe | kSr2Srp1 | kSr2Cmp;
    return static_cast<std::uint8_t>((sr2_ & ~writable) | (v & writable) | (v & kSr2LbMask));
  };
  if (volatile_sr_write_) {
    // After 0x50: only the volatile copy changes, no WEL needed, not busy.
    volatile_sr_write_ = false;
    const std::uint8_t old1 = sr1_, old2 = sr2_;
    if (sr1) sr1_ = merged1(*sr1);
    if (sr2) sr2_ = merged2(*sr2);
    if (sr3) sr3_ = *sr3;
    activity_.status_written(old1, old2, sr1_, sr2_);
    return;
  }
  if (!wel_) return;
  if (locked()) {
    if (config_.protected_clears_wel) wel_ = false;
    return;
  }
  PendingOp op;
  op.kind = OpKind::StatusWrite;
  op.sr1 = sr1 ? merged1(*sr1) : sr1_;
  op.sr2 = sr2 ? merged2(*sr2) : sr2_;
  op.sr3 = sr3 ? *sr3 : sr3_;
  start(now, std::move(op), config_.t_w, false);
}

std::uint8_t Gd25FlashModel::read_array(std::uint32_t address) {
  address %= kFlashSize;
  std::uint8_t value = array_[address];
  for (auto *f : faults_.of(FaultKind::ReadBitFlip)) {
    if (!f->sfdp && f->address == address && f->hit(random_))
      value = static_cast<std::uint8_t>(value ^ (1u << f->bit));
  }
  return value;
}

std::uint8_t Gd25FlashModel::out_byte(std::uint8_t opcode, std::span<const std::uint8_t> after,
                                      std::size_t pos) {
  switch (opcode) {
  case spi::kReadJedecId: {
    const std::uint32_t id = jedec_id();
    const std::uint8_t bytes[3] = {static_cast<std::uint8_t>(id >> 16),
                                   static_cast<std::uint8_t>(id >> 8),
                                   static_cast<std::uint8_t>(id)};
    return bytes[(pos + config_.rdid_rotate) % 3];
  }
  case spi::kReadStatus1:
    return static_cast<std::uint8_t>((sr1_ & 0xFC) | (wel_ ? kSr1Wel : 0) |
                                     (pending_ ? kSr1Busy : 0));
  case spi::kReadStatus2: return sr2_;
  case spi::kReadStatus3: return sr3_;
  case spi::kRead:
    if (after.size() < 3 || pos < 3) return 0xFF;
    return read_array(address_of(after) + static_cast<std::uint32_t>(pos - 3));
  case spi::kFastRead:
    if (after.size() < 3 || pos < 4) return 0xFF;
    return read_array(address_of(after) + static_cast<std::uint32_t>(pos - 4));
  case spi::kReadSfdp: {
    if (after.size() < 3 || pos < 4) return 0xFF;  // the 8 dummy clocks the engine never sends
    const std::uint32_t a = (address_of(after) + static_cast<std::uint32_t>(pos - 4)) & 0xFF;
    std::uint8_t value = sfdp_[a];
    for (auto *f : faults_.of(FaultKind::ReadBitFlip))
      if (f->sfdp && f->address == a && f->hit(random_))
        value = static_cast<std::uint8_t>(value ^ (1u << f->bit));
    return value;
  }
  case spi::kReadManufacturerDevice:
    if (pos < 3) return 0xFF;
    return (pos - 3) % 2 == 0 ? static_cast<std::uint8_t>(jedec_id() >> 16) : kDeviceId;
  case spi::kReleasePowerDown: return pos < 3 ? 0xFF : kDeviceId;
  case spi::kReadUniqueId: {
    if (pos < 4) return 0xFF;
    SimRandom id(config_.seed ^ 0x4B4B4B4Bull);
    std::uint8_t value = 0;
    for (std::size_t i = 0; i <= (pos - 4) % 16; ++i) value = static_cast<std::uint8_t>(id.next());
    return value;
  }
  default: return 0xFF;
  }
}

std::vector<std::uint8_t> Gd25FlashModel::frame(TimePoint now, std::span<const std::uint8_t> mosi,
                                                std::size_t rx) {
  std::vector<std::uint8_t> out(rx, 0xFF);
  if (mosi.empty()) return out;
  settle(now);
  const std::uint8_t opcode = mosi[0];
  const auto after = mosi.subspan(1);
  const bool status_read =
      opcode == spi::kReadStatus1 || opcode == spi::kReadStatus2 || opcode == spi::kReadStatus3;

  if (deep_power_down_) {
    if (opcode != spi::kReleasePowerDown) return out;
    deep_power_down_ = false;
  } else if (pending_ && !status_read && opcode != spi::kSuspend) {
    return out;  // a busy chip ignores everything but status reads
  }

  // Read-type commands: the output index counts clocks after the opcode, so bytes the host sends
  // after the opcode (an address) come first.
  bool read_type = true;
  switch (opcode) {
  case spi::kWriteEnable:
  case spi::kWriteDisable:
  case spi::kVolatileSrWriteEnable:
  case spi::kWriteStatus:
  case spi::kWriteStatus2:
  case spi::kWriteStatus3:
  case spi::kSectorErase:
  case spi::kBlockErase32K:
  case spi::kBlockErase64K:
  case spi::kChipErase:
  case spi::kChipErase2:
  case spi::kPageProgram:
  case spi::kDeepPowerDown:
  case spi::kEnableReset:
  case spi::kReset:
  case spi::kSuspend:
  case spi::kResume: read_type = false; break;
  default: break;
  }
  if (read_type) {
    for (std::size_t i = 0; i < rx; ++i) out[i] = out_byte(opcode, after, after.size() + i);
    if ((opcode == spi::kRead && after.size() >= 3) ||
        (opcode == spi::kFastRead && after.size() >= 4)) {
      const std::uint32_t skip = opcode == spi::kRead ? 3 : 4;
      const std::uint32_t first =
          address_of(after) + static_cast<std::uint32_t>(after.size()) - skip;
      if (rx > 0) activity_.array_read(first % kFlashSize, static_cast<std::uint32_t>(rx));
    }
    return out;
  }

  // Write-type commands: exact framing or nothing happens.
  if (rx != 0) return out;
  const std::size_t n = after.size();
  switch (opcode) {
  case spi::kWriteEnable:
    if (n != 0) break;
    {
      bool ignored = false;
      for (auto *f : faults_.of(FaultKind::WrenIgnored)) ignored |= f->hit(random_);
      if (!ignored) wel_ = true;
    }
    break;
  case spi::kWriteDisable:
    if (n == 0) wel_ = false;
    break;
  case spi::kVolatileSrWriteEnable:
    if (n == 0) volatile_sr_write_ = true;
    break;
  case spi::kWriteStatus:
    if (n == 1)
      write_status(now, after[0], std::nullopt, std::nullopt);
    else if (n == 2)
      write_status(now, after[0], after[1], std::nullopt);
    break;
  case spi::kWriteStatus2:
    if (n == 1) write_status(now, std::nullopt, after[0], std::nullopt);
    break;
  case spi::kWriteStatus3:
    if (n == 1) write_status(now, std::nullopt, std::nullopt, after[0]);
    break;
  case spi::kSectorErase:
    if (n == 3) erase(now, address_of(after), kSectorSize);
    break;
  case spi::kBlockErase32K:
    if (n == 3) erase(now, address_of(after), 0x8000);
    break;
  case spi::kBlockErase64K:
    if (n == 3) erase(now, address_of(after), 0x10000);
    break;
  case spi::kChipErase:
  case spi::kChipErase2:
    if (n != 0 || !wel_) break;
    if (!protected_range(sr1_, sr2_, kFlashSize).empty()) {
      if (config_.protected_clears_wel) wel_ = false;
      break;
    }
    erase(now, 0, kFlashSize);
    break;
  case spi::kPageProgram:
    if (n >= 4) program(now, address_of(after), after.subspan(3));
    break;
  case spi::kDeepPowerDown:
    if (n == 0) deep_power_down_ = true;
    break;
  case spi::kEnableReset:
    if (n == 0) reset_enabled_ = true;
    break;
  case spi::kReset:
    if (n == 0 && reset_enabled_) {
      wel_ = false;
      volatile_sr_write_ = false;
      sr1_ = nv_sr1_;
      sr2_ = nv_sr2_;
      sr3_ = nv_sr3_;
    }
    break;
  default: break;  // suspend/resume: accepted, nothing to suspend in this model
  }
  if (opcode != spi::kEnableReset) reset_enabled_ = false;
  return out;
}

void Gd25FlashModel::aperture_read(TimePoint now, std::uint32_t address,
                                   std::span<std::uint8_t> out) {
  settle(now);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint32_t a = static_cast<std::uint32_t>((address + i) % kFlashSize);
    out[i] = read_array(a);
    if (pending_ && pending_->kind == OpKind::Erase && !pending_->never_ends &&
        a >= pending_->address && a < pending_->address + pending_->result.size()) {
      // The erased part grows from the start of the unit with the elapsed fraction of t_se.
      const double fraction =
          std::clamp(std::chrono::duration<double>(now - pending_->start).count() /
                         std::chrono::duration<double>(pending_->end - pending_->start).count(),
                     0.0, 1.0);
      if (a - pending_->address < fraction * static_cast<double>(pending_->result.size()))
        out[i] = 0xFF;
    }
  }
}

bool Gd25FlashModel::firmware_write(TimePoint now, std::uint32_t address,
                                    std::span<const std::uint8_t> bytes) {
  settle(now);
  if (pending_) return false;
  for (std::uint32_t sector = address / kSectorSize * kSectorSize; sector < address + bytes.size();
       sector += kSectorSize) {
    std::vector<std::uint8_t> wanted(array_.begin() + sector,
                                     array_.begin() + sector + kSectorSize);
    for (std::uint32_t a = std::max(sector, address);
         a < std::min<std::uint64_t>(sector + kSectorSize, address + bytes.size()); ++a)
      wanted[a - sector] = bytes[a - address];
    if (std::equal(wanted.begin(), wanted.end(), array_.begin() + sector)) continue;
    erase(now, sector, kSectorSize, true);
    if (pending_ || lost_power_) return false;
    for (std::uint32_t page = 0; page < kSectorSize; page += kPageSize) {
      const auto chunk = std::span<const std::uint8_t>(wanted).subspan(page, kPageSize);
      if (std::all_of(chunk.begin(), chunk.end(), [](std::uint8_t b) { return b == 0xFF; }))
        continue;
      program(now, sector + page, chunk, true);
      if (pending_ || lost_power_) return false;
    }
    if (!std::equal(wanted.begin(), wanted.end(), array_.begin() + sector)) return false;
  }
  return true;
}

void Gd25FlashModel::power_cycle(TimePoint now) {
  settle(now);
  if (pending_) cut_by_power_loss(*pending_, now);
  pending_.reset();
  wel_ = false;
  volatile_sr_write_ = false;
  deep_power_down_ = false;
  reset_enabled_ = false;
  lost_power_ = false;
  sr1_ = nv_sr1_;
  sr2_ = nv_sr2_;
  sr3_ = nv_sr3_;
}

nlohmann::json Gd25FlashModel::save() const {
  nlohmann::json j = {
      {"sr", {sr1_, sr2_, sr3_}},
      {"nv_sr", {nv_sr1_, nv_sr2_, nv_sr3_}},
      {"wel", wel_},
      {"volatile_sr_write", volatile_sr_write_},
      {"deep_power_down", deep_power_down_},
  };
  if (pending_) {
    j["pending"] = {{"kind", static_cast<int>(pending_->kind)},
                    {"address", pending_->address},
                    {"result", pending_->result},
                    {"start_ns", pending_->start.time_since_epoch().count()},
                    {"end_ns", pending_->end.time_since_epoch().count()},
                    {"never_ends", pending_->never_ends},
                    {"sr", {pending_->sr1, pending_->sr2, pending_->sr3}}};
  }
  return j;
}

void Gd25FlashModel::load(const nlohmann::json &j) {
  sr1_ = j.at("sr").at(0);
  sr2_ = j.at("sr").at(1);
  sr3_ = j.at("sr").at(2);
  nv_sr1_ = j.at("nv_sr").at(0);
  nv_sr2_ = j.at("nv_sr").at(1);
  nv_sr3_ = j.at("nv_sr").at(2);
  wel_ = j.value("wel", false);
  volatile_sr_write_ = j.value("volatile_sr_write", false);
  deep_power_down_ = j.value("deep_power_down", false);
  pending_.reset();
  if (j.contains("pending")) {
    const auto &p = j["pending"];
    PendingOp op;
    op.kind = static_cast<OpKind>(p.at("kind").get<int>());
    op.address = p.at("address");
    op.result = p.at("result").get<std::vector<std::uint8_t>>();
    op.start = TimePoint(Clock::Duration(p.at("start_ns").get<std::int64_t>()));
    op.end = TimePoint(Clock::Duration(p.at("end_ns").get<std::int64_t>()));
    op.never_ends = p.at("never_ends");
    op.sr1 = p.at("sr").at(0);
    op.sr2 = p.at("sr").at(1);
    op.sr3 = p.at("sr").at(2);
    if (op.address > array_.size() || op.result.size() > array_.size() - op.address)
      throw Error(ErrorKind::BadInput,
                  fmt::format("saved flash operation at 0x{:X} of {} bytes lies outside the chip",
                              op.address, op.result.size()));
    pending_ = std::move(op);
  }
}

}  // namespace wavescope::hw::sim
