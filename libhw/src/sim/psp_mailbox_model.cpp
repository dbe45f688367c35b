#include "sim/psp_mailbox_model.hpp"

#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/hw/ifwi/checksums.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using namespace navi31;

namespace {

namespace cmd {
constexpr std::uint8_t kGetBootPartition = 0x01;
constexpr std::uint8_t kLiveAddressLo = 0x02;
constexpr std::uint8_t kLiveAddressHi = 0x03;
constexpr std::uint8_t kLiveUpdate = 0x04;
constexpr std::uint8_t kGetFbState = 0x06;
constexpr std::uint8_t kGetTransferType = 0x07;
constexpr std::uint8_t kStartTransfer = 0x08;
constexpr std::uint8_t kDataTransfer = 0x09;
constexpr std::uint8_t kEndTransfer = 0x0A;
constexpr std::uint8_t kSpiGetModelId = 0x0B;
}  // namespace cmd

namespace err {
constexpr std::uint16_t kOutOfBounds = 0x02;
constexpr std::uint16_t kInvalidParameter = 0x03;
constexpr std::uint16_t kParseOffChip = 0x06;
constexpr std::uint16_t kPartitionUpdate = 0x0A;  // also "update commands gated"
constexpr std::uint16_t kWriteToSpi = 0x0C;
constexpr std::uint16_t kInvalidCommand = 0x0E;
constexpr std::uint16_t kStateMachineNotInitialised = 0x10;
constexpr std::uint16_t kStateMachineTransfer = 0x11;
}  // namespace err

constexpr std::uint32_t kMetadataOffset = 0x1EF000;
constexpr std::uint32_t kCookieOffset = 0x50;

std::uint32_t u32(const std::vector<std::uint8_t> &b, std::uint64_t offset) {
  if (offset + 4 > b.size()) return 0xFFFFFFFF;
  std::uint32_t v;
  std::memcpy(&v, b.data() + offset, 4);
  return v;
}
void put_u32(std::vector<std::uint8_t> &b, std::uint64_t offset, std::uint32_t v) {
  std::memcpy(b.data() + offset, &v, 4);
}

std::string to_hex(const std::vector<std::uint8_t> &bytes) {
  std::string s;
  s.reserve(bytes.size() * 2);
  for (auto b : bytes) s += fmt::format("{:02x}", b);
  return s;
}
std::vector<std::uint8_t> from_hex(const std::string &s) {
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return out;
}

// The firmware's own item placement (independent of the host's resolver): fixed offsets, the
// $SGN table through the pointer at 0x1000, signature entries through that table.
std::optional<std::uint64_t> fixed_item_offset(std::uint8_t item) {
  switch (item) {
  case 0x01: return 0x000000;
  case 0x02: return 0x002000;
  case 0x03: return 0x003000;
  case 0x04: return 0x010000;
  case 0x05: return 0x011000;
  case 0x06: return 0x012000;
  case 0x07: return 0x013000;
  case 0x80: return 0x001000;
  case 0x89: return 0x1F0000;
  default: return std::nullopt;
  }
}

}  // namespace

PspMailboxModel::PspMailboxModel(const SimConfig &config, Gd25FlashModel &chip, FaultPlan &faults,
                                 SimRandom &random, BoardActivity &activity)
    : config_(config), chip_(chip), faults_(faults), random_(random), activity_(activity) {}

void PspMailboxModel::reset(PspMode mode, Slot booted_slot) {
  mode_ = mode;
  cmd_ = mode == PspMode::Dead ? 0 : kPspReady;
  data_ = 0;
  pending_.reset();
  state_ = State::Request;
  step_ = 0;
  receiving_item_ = 0;
  receiving_size_ = 0;
  received_.clear();
  stored_.clear();
  booted_slot_ = booted_slot;
  next_slot_ = booted_slot;
  live_address_lo_ = live_address_hi_ = 0;
}

std::uint32_t PspMailboxModel::read(std::uint32_t offset, TimePoint now) {
  complete_pending(now);
  switch (offset) {
  case kPspCommand:
    if (mode_ == PspMode::Dead) return 0;
    for (const auto &f : faults_.all())
      if (f.kind == FaultKind::Psp && f.mode == "never-ready") return cmd_ & ~kPspReady;
    return cmd_;
  case kPspData: return mode_ == PspMode::Dead ? 0 : data_;
  case kPspSosAlive: return mode_ == PspMode::Sos ? 1 : 0;
  case kPspBootLoader: return mode_ == PspMode::Dead ? 0 : kPspReady;
  default: return 0;
  }
}

void PspMailboxModel::write(std::uint32_t offset, std::uint32_t value, TimePoint now) {
  complete_pending(now);
  if (mode_ == PspMode::Dead) return;
  switch (offset) {
  case kPspCommand: cmd_ = value & ~kPspReady; break;
  case kPspData: data_ = value; break;
  case kPspDoorbell: {
    if (value == 0 || (cmd_ & kPspReady) || pending_) return;  // ignored
    for (const auto &f : faults_.all())
      if (f.kind == FaultKind::Psp && f.mode == "never-ready") return;
    const auto command = static_cast<std::uint8_t>(cmd_ >> 16);
    Pending p;
    p.command = command;
    bool faulted = false;
    for (auto *f : faults_.of(FaultKind::Psp)) {
      if (f->command && *f->command != command) continue;
      if (f->mode == "never-ready" || !f->hit(random_)) continue;
      faulted = true;
      if (f->mode == "busy")
        p.never = true;
      else
        p.result.error = f->code;
    }
    if (!faulted) p.result = execute(command, data_, now);
    p.at = now + (command == cmd::kEndTransfer ? config_.psp_end_latency : config_.psp_latency);
    pending_ = p;
    break;
  }
  default: break;  // C2PMSG_81 and _35 are read-only here
  }
}

void PspMailboxModel::complete_pending(TimePoint now) {
  if (!pending_ || pending_->never || now < pending_->at) return;
  cmd_ = kPspReady | (std::uint32_t{pending_->command} << 16) | pending_->result.error;
  if (pending_->result.error == 0 && pending_->result.response) data_ = *pending_->result.response;
  pending_.reset();
}

PspMailboxModel::Result PspMailboxModel::execute(std::uint8_t command, std::uint32_t argument,
                                                 TimePoint now) {
  return mode_ == PspMode::Sos ? execute_sos(command, argument, now)
                               : execute_early(command, argument, now);
}

PspMailboxModel::Result PspMailboxModel::execute_sos(std::uint8_t command, std::uint32_t argument,
                                                     TimePoint now) {
  switch (command) {
  case cmd::kGetBootPartition:
  case cmd::kGetFbState:
  case cmd::kGetTransferType:
  case cmd::kStartTransfer:
  case cmd::kDataTransfer:
  case cmd::kEndTransfer:
  case cmd::kSpiGetModelId: return {err::kPartitionUpdate, {}};
  case cmd::kLiveAddressLo: live_address_lo_ = argument; return {};
  case cmd::kLiveAddressHi: live_address_hi_ = argument; return {};
  case cmd::kLiveUpdate: {
    if (config_.live_update_succeeds) return {};
    // Mirrors the reported failure: the PSP writes its cookie, then fails writing the SPI.
    std::vector<std::uint8_t> cookie = {'$', 'A', 'M', 'D', 'V', 'B', 'F', 'L'};
    chip_.firmware_write(now, kMetadataOffset, cookie);
    return {err::kWriteToSpi, {}};
  }
  default: return {err::kInvalidCommand, {}};
  }
}

PspMailboxModel::Result PspMailboxModel::execute_early(std::uint8_t command, std::uint32_t argument,
                                                       TimePoint now) {
  const auto &script = config_.psp_script;
  const bool known = command == cmd::kGetBootPartition || command == cmd::kGetFbState ||
                     command == cmd::kGetTransferType || command == cmd::kStartTransfer ||
                     command == cmd::kDataTransfer || command == cmd::kEndTransfer ||
                     command == cmd::kSpiGetModelId;
  if (!known) return {err::kInvalidCommand, {}};
  if (state_ == State::Done) return {err::kPartitionUpdate, {}};
  switch (command) {
  case cmd::kGetBootPartition: return {0, static_cast<std::uint32_t>(booted_slot_)};
  case cmd::kGetFbState: return {0, 0u};
  case cmd::kSpiGetModelId:
    return {0, std::uint32_t{config_.jedec[0]} | (std::uint32_t{config_.jedec[1]} << 8) |
                   (std::uint32_t{config_.jedec[2]} << 16)};
  case cmd::kGetTransferType:
    if (step_ >= script.size()) return {err::kStateMachineTransfer, {}};
    return {0, (std::uint32_t{script[step_].phase} << 8) | script[step_].item};
  case cmd::kStartTransfer: {
    if (state_ == State::Receive) return {err::kStateMachineTransfer, {}};
    const auto item = static_cast<std::uint8_t>(argument & 0xFF);
    const std::uint32_t size = argument >> 8;
    if (step_ >= script.size() || item != script[step_].item)
      return {err::kStateMachineTransfer, {}};
    if (size == 0 || size % 4 != 0) return {err::kInvalidParameter, {}};
    activity_.start_transfer();
    state_ = State::Receive;
    receiving_item_ = item;
    receiving_size_ = size;
    received_.clear();
    return {};
  }
  case cmd::kDataTransfer:
    if (state_ != State::Receive) return {err::kStateMachineNotInitialised, {}};
    if (received_.size() + 4 > receiving_size_) return {err::kOutOfBounds, {}};
    for (int i = 0; i < 4; ++i) received_.push_back(static_cast<std::uint8_t>(argument >> (8 * i)));
    return {};
  case cmd::kEndTransfer: {
    if (state_ != State::Receive) return {err::kStateMachineNotInitialised, {}};
    const auto item = static_cast<std::uint8_t>(argument & 0xFF);
    const std::uint32_t sent = argument >> 8;
    state_ = State::Request;
    if (item != receiving_item_ || sent != received_.size() ||
        received_.size() != receiving_size_) {
      received_.clear();
      return {err::kStateMachineTransfer, {}};
    }
    if (!structurally_valid(item, received_)) {
      received_.clear();
      return {err::kParseOffChip, {}};
    }
    if (step_ >= script.size())  // only a damaged saved state gets here
      return {err::kStateMachineTransfer, {}};
    stored_[item] = std::move(received_);
    received_.clear();
    if (script[step_].phase < 2) {
      ++step_;
      return {};
    }
    const bool ok = commit(now);
    state_ = State::Done;
    return {ok ? std::uint16_t{0} : err::kWriteToSpi, {}};
  }
  default: return {err::kInvalidCommand, {}};
  }
}

bool PspMailboxModel::structurally_valid(std::uint8_t item,
                                         const std::vector<std::uint8_t> &p) const {
  auto starts_with = [&](const char *magic) {
    return p.size() >= 4 && std::memcmp(p.data(), magic, 4) == 0;
  };
  switch (item) {
  case 0x01: return p.size() >= 4 && u32(p, 0) == kImageMagic;
  case 0x02:
  case 0x03: {
    if (!starts_with("$PSP") || p.size() < 16) return false;
    const std::uint64_t end = 16 + std::uint64_t{u32(p, 8)} * 16;
    if (end > p.size()) return false;
    return u32(p, 4) == ifwi::fletcher32(std::span(p).subspan(8, end - 8));
  }
  case 0x81: return starts_with("$SGN");
  case 0x08: return starts_with("$PL2");
  default: return true;
  }
}

bool PspMailboxModel::commit(TimePoint now) {
  std::vector<std::uint8_t> image = chip_.array();
  auto place = [&](std::uint8_t item, std::uint64_t offset) {
    auto it = stored_.find(item);
    if (it == stored_.end()) return true;
    if (offset + it->second.size() > image.size()) return false;
    std::copy(it->second.begin(), it->second.end(),
              image.begin() + static_cast<std::ptrdiff_t>(offset));
    return true;
  };
  for (std::uint8_t item : {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x80, 0x89})
    if (!place(item, *fixed_item_offset(item))) return false;
  const std::uint32_t table = u32(image, 0x1000);
  if (stored_.count(0x81) && !place(0x81, table)) return false;
  for (std::uint8_t item = 0x82; item <= 0x88; ++item) {
    if (!stored_.count(item)) continue;
    const std::uint32_t count = u32(image, std::uint64_t{table} + 8);
    std::optional<std::uint64_t> offset;
    for (std::uint32_t i = 0; i < count && i < 64; ++i) {
      const std::uint64_t entry = std::uint64_t{table} + 0x10 + 16 * i;
      if (u32(image, entry) == static_cast<std::uint32_t>(item - 0x81))
        offset = u32(image, entry + 12);
    }
    if (!offset || !place(item, *offset)) return false;
  }
  // The partition payload goes into the inactive slot only.
  const Slot target = booted_slot_ == Slot::A ? Slot::B : Slot::A;
  const std::uint64_t ish = target == Slot::A ? 0x12000 : 0x13000;
  if (auto it = stored_.find(0x08); it != stored_.end()) {
    const std::uint32_t address = u32(image, ish + 0x10);
    const std::uint32_t size = u32(image, ish + 0x18);
    if (it->second.size() > size || std::uint64_t{address} + it->second.size() > image.size())
      return false;
    std::copy(it->second.begin(), it->second.end(), image.begin() + address);
  }
  ++commit_counter_;
  put_u32(image, ish + 8, u32(image, ish + 8) + 1);  // update retries
  put_u32(image, ish, ifwi::crc32(std::span(image).subspan(ish + 4, 0x1C)));
  std::fill(image.begin() + kMetadataOffset, image.begin() + kMetadataOffset + 0x1000, 0xFF);
  const char meta[] = "SIMMETA";
  std::memcpy(image.data() + kMetadataOffset, meta, 8);  // includes the 0x00 byte
  put_u32(image, kMetadataOffset + 8, commit_counter_);
  put_u32(image, kCookieOffset, commit_counter_);
  if (!chip_.firmware_write(now, 0, image)) return false;
  next_slot_ = target;
  return true;
}

nlohmann::json PspMailboxModel::save() const {
  nlohmann::json stored = nlohmann::json::object();
  for (const auto &[item, bytes] : stored_) stored[fmt::format("{:02x}", item)] = to_hex(bytes);
  nlohmann::json j = {{"mode", static_cast<int>(mode_)},
                      {"cmd", cmd_},
                      {"data", data_},
                      {"state", static_cast<int>(state_)},
                      {"step", step_},
                      {"receiving_item", receiving_item_},
                      {"receiving_size", receiving_size_},
                      {"received", to_hex(received_)},
                      {"stored", stored},
                      {"booted_slot", static_cast<int>(booted_slot_)},
                      {"next_slot", static_cast<int>(next_slot_)},
                      {"commits", commit_counter_},
                      {"live_address", {live_address_lo_, live_address_hi_}}};
  if (pending_) {
    j["pending"] = {{"at_ns", pending_->at.time_since_epoch().count()},
                    {"command", pending_->command},
                    {"error", pending_->result.error},
                    {"never", pending_->never}};
    if (pending_->result.response) j["pending"]["response"] = *pending_->result.response;
  }
  return j;
}

void PspMailboxModel::load(const nlohmann::json &j) {
  mode_ = static_cast<PspMode>(j.at("mode").get<int>());
  cmd_ = j.at("cmd");
  data_ = j.at("data");
  state_ = static_cast<State>(j.at("state").get<int>());
  step_ = j.at("step");
  receiving_item_ = j.at("receiving_item");
  receiving_size_ = j.at("receiving_size");
  received_ = from_hex(j.at("received").get<std::string>());
  stored_.clear();
  for (const auto &[key, value] : j.at("stored").items())
    stored_[static_cast<std::uint8_t>(std::stoul(key, nullptr, 16))] =
        from_hex(value.get<std::string>());
  booted_slot_ = static_cast<Slot>(j.at("booted_slot").get<int>());
  next_slot_ = static_cast<Slot>(j.at("next_slot").get<int>());
  commit_counter_ = j.at("commits");
  live_address_lo_ = j.at("live_address").at(0);
  live_address_hi_ = j.at("live_address").at(1);
  pending_.reset();
  if (j.contains("pending")) {
    const auto &p = j["pending"];
    Pending pending;
    pending.at = TimePoint(Clock::Duration(p.at("at_ns").get<std::int64_t>()));
    pending.command = p.at("command");
    pending.result.error = p.at("error");
    pending.never = p.at("never");
    if (p.contains("response")) pending.result.response = p["response"].get<std::uint32_t>();
    pending_ = pending;
  }
}

}  // namespace wavescope::hw::sim
