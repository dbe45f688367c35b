#include "wavescope/hw/am/smu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/memory_manager.hpp"

namespace wavescope::hw::am {

namespace {

using namespace std::chrono_literals;
const char *const kMsg = "mp1.MP1_SMN_C2PMSG_66", *const kArg = "mp1.MP1_SMN_C2PMSG_82",
                  *const kResp = "mp1.MP1_SMN_C2PMSG_90";
const char *const kDbgMsg = "mp1.MP1_SMN_C2PMSG_75", *const kDbgArg = "mp1.MP1_SMN_C2PMSG_53",
                  *const kDbgResp = "mp1.MP1_SMN_C2PMSG_54";
constexpr std::uint32_t kDebugMode1Reset = 2;  // DEBUGSMC_MSG_Mode1Reset (hand-written, §10.2)

const char *response_meaning(std::uint32_t r) {
  switch (r) {
  case 0xFF: return "failed";
  case 0xFE: return "unknown message";
  case 0xFD: return "a prerequisite is not met";
  case 0xFC: return "busy";
  default: return "an unknown response code";
  }
}

bool in(regs::IpVersion v, std::initializer_list<regs::IpVersion> set) {
  for (const auto &s : set)
    if (v == s) return true;
  return false;
}

}  // namespace

SmuIds SmuIds::for_mp1(unsigned major, unsigned minor, unsigned revision) {
  SmuIds ids;
  if (major == 13 && minor == 0 && (revision == 6 || revision == 12 || revision == 14)) {
    ids.mi = true;
    ids.enable_all_features = 0x5;
    ids.driver_dram_high = 0xD;
    ids.driver_dram_low = 0xE;
    ids.transfer_table_to_dram = 0;
    ids.get_metrics_table = 0x9;
    ids.get_dpm_freq_by_index = 0x17;
    ids.set_soft_min = 0x13;
    ids.set_soft_max = 0x14;
    ids.set_ppt_limit = 0x18;
    ids.mode1_reset = 0;
    ids.gfx_driver_reset = 0x3;
    ids.query_mca_count = 0x36;
    ids.mca_dump = 0x37;
    ids.query_mca_ce_count = 0x3A;
    ids.mca_ce_dump = 0x3B;
    ids.gfxclk = 0xFFFF'FFFF;  // not driven
    ids.socclk = 2;
    ids.uclk = 3;
    ids.fclk = 4;
  } else if (major != 13 || minor != 0 || revision != 0) {
    ids.mode1_reset = 0;  // only smu_v13_0_0_ppsmc.h defines Mode1Reset 0x2F
  }
  return ids;
}

std::string smu_message_name(const SmuIds &ids, std::uint32_t msg) {
  const std::pair<std::uint32_t, const char *> names[] = {
      {ids.get_smu_version, "GetSmuVersion"},
      {ids.enable_all_features, "EnableAllSmuFeatures"},
      {ids.driver_dram_high, "SetDriverDramAddrHigh"},
      {ids.driver_dram_low, "SetDriverDramAddrLow"},
      {ids.transfer_table_to_dram, "TransferTableSmu2Dram"},
      {ids.get_metrics_table, "GetMetricsTable"},
      {ids.get_dpm_freq_by_index, "GetDpmFreqByIndex"},
      {ids.set_soft_min, "SetSoftMinByFreq"},
      {ids.set_soft_max, "SetSoftMaxByFreq"},
      {ids.set_ppt_limit, "SetPptLimit"},
      {ids.mode1_reset, "Mode1Reset"},
      {ids.gfx_driver_reset, "GfxDriverReset"},
      {ids.query_mca_count, "QueryValidMcaCount"},
      {ids.mca_dump, "McaBankDumpDW"},
      {ids.query_mca_ce_count, "QueryValidMcaCeCount"},
      {ids.mca_ce_dump, "McaBankCeDumpDW"}};
  for (const auto &[id, name] : names)
    if (id != 0 && id == msg) return name;
  return fmt::format("message 0x{:X}", msg);
}

std::string smu_clock_name(const SmuIds &ids, std::uint32_t clk) {
  if (clk == ids.gfxclk) return "GFXCLK";
  if (clk == ids.socclk) return "SOCCLK";
  if (clk == ids.uclk) return "UCLK";
  if (clk == ids.fclk) return "FCLK";
  return fmt::format("clock {}", clk);
}

AmSmu::AmSmu(AmGpu &gpu) : gpu_(gpu) {
  const auto v = gpu_.device().ip_version("MP1");
  ids_ = SmuIds::for_mp1(v.major, v.minor, v.revision);
}

void AmSmu::init_sw() {
  driver_table_paddr_ = gpu_.mm().palloc(kDriverTableSize, 0x1000, false, true, "SMU driver table");
}

void AmSmu::init_hw() {
  const auto mc = gpu_.gmc().paddr2mc(driver_table_paddr_);
  send(ids_.driver_dram_high, static_cast<std::uint32_t>(mc >> 32));
  send(ids_.driver_dram_low, static_cast<std::uint32_t>(mc));
  send(ids_.enable_all_features, 0);
}

std::uint32_t AmSmu::send(std::uint32_t msg, std::uint32_t arg, bool read_back,
                          std::chrono::milliseconds timeout, bool debug, bool ignore_timeout) {
  auto &dev = gpu_.device();
  const char *resp = debug ? kDbgResp : kResp;
  dev.wreg(resp, 0);
  dev.wreg(debug ? kDbgArg : kArg, arg);
  dev.wreg(debug ? kDbgMsg : kMsg, msg);
  SmuMessage record{debug, msg, arg, 0, std::nullopt, false};
  const auto name = debug ? fmt::format("debug message 0x{:X}", msg) : smu_message_name(ids_, msg);
  try {
    dev.wait_until(
        [&] {
          record.response = dev.rreg(resp);
          return record.response != 0;
        },
        timeout, fmt::format("SMU msg 0x{:X} ({}, argument 0x{:X}): no answer", msg, name, arg),
        [&] { return fmt::format("{} still reads 0", resp); });
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::Timeout || !ignore_timeout) {
      messages_.push_back(record);
      throw;
    }
    record.timed_out = true;
    messages_.push_back(record);
    return 0;
  }
  if (record.response != 1) {
    messages_.push_back(record);
    throw Error(ErrorKind::Firmware,
                fmt::format("SMU {} (0x{:X}, argument 0x{:X}): the SMU answered 0x{:X} ({})", name,
                            msg, arg, record.response, response_meaning(record.response)));
  }
  std::uint32_t result = 0;
  if (read_back) record.result = result = dev.rreg(debug ? kDbgArg : kArg);
  messages_.push_back(record);
  return result;
}

bool AmSmu::is_alive() {
  send(ids_.get_smu_version, 0, false, 100ms, false, true);
  return gpu_.device().rreg(kResp) != 0;
}

void AmSmu::mode1_reset() {
  const auto mp0 = gpu_.device().ip_version("MP0");
  if (mp0.major >= 14 || in(mp0, {{13, 0, 0}, {13, 0, 7}, {13, 0, 10}}))
    send(kDebugMode1Reset, 0, false, std::chrono::seconds(10), true);
  else if (in(mp0, {{13, 0, 6}, {13, 0, 12}, {13, 0, 15}}))
    send(ids_.gfx_driver_reset, 1);
  else
    send(ids_.mode1_reset, 0);
  gpu_.log("SMU mode-1 reset");
  if (!gpu_.gmc().is_hive()) gpu_.device().clock().sleep(500ms);
}

std::vector<std::uint32_t> AmSmu::driven_clocks() const {
  std::vector<std::uint32_t> clocks = {ids_.uclk, ids_.fclk, ids_.socclk};
  const auto mp0 = gpu_.device().ip_version("MP0");
  if (!in(mp0, {{13, 0, 6}, {13, 0, 12}, {13, 0, 15}})) clocks.push_back(ids_.gfxclk);
  return clocks;
}

const std::vector<std::uint32_t> &AmSmu::dpm_levels(std::uint32_t clock) {
  if (auto it = levels_.find(clock); it != levels_.end()) return it->second;
  std::vector<std::uint32_t> levels;
  const auto count = send(ids_.get_dpm_freq_by_index, clock << 16 | 0xFF, true) & 0x7FFF'FFFF;
  if (count > 64)
    throw Error(ErrorKind::Firmware,
                fmt::format("SMU: {} reports {} DPM levels; more than 64 is not a real table",
                            smu_clock_name(ids_, clock), count));
  for (std::uint32_t i = 0; i < count; ++i)
    levels.push_back(send(ids_.get_dpm_freq_by_index, clock << 16 | i, true) & 0x7FFF'FFFF);
  return levels_[clock] = std::move(levels);
}

void AmSmu::set_clocks(std::optional<int> level) {
  const bool max_too = gpu_.device().ip_version("GC").major >= 10;
  for (const auto clock : driven_clocks()) {
    if (!level) {
      send(ids_.set_soft_min, clock << 16, false, 20ms, false, true);
      if (max_too) send(ids_.set_soft_max, clock << 16 | 0xFFFF);
      continue;
    }
    const auto &levels = dpm_levels(clock);
    if (levels.empty()) continue;  // a clock without levels is not driven
    const int n = static_cast<int>(levels.size());
    const int index = *level < 0 ? n + *level : *level;
    if (index < 0 || index >= n)
      throw Error(ErrorKind::Usage,
                  fmt::format("SMU: {} has {} DPM levels; level {} does not exist",
                              smu_clock_name(ids_, clock), n, *level));
    const std::uint32_t mhz = levels[static_cast<std::size_t>(index)];
    send(ids_.set_soft_min, clock << 16 | mhz, false, 20ms, false, true);
    if (max_too) send(ids_.set_soft_max, clock << 16 | mhz);
  }
  gpu_.log(level ? fmt::format("SMU clocks to level {}", *level) : "SMU clocks unconstrained");
}

void AmSmu::set_power_limit(double watts) {
  const auto w = std::max<long>(1, std::lround(watts));
  send(ids_.set_ppt_limit, static_cast<std::uint32_t>(w));
  gpu_.log(fmt::format("SMU power limit {} W", w));
}

std::vector<std::uint8_t> AmSmu::read_metrics(std::size_t size) {
  if (ids_.mi)
    send(ids_.get_metrics_table, ids_.metrics_table);
  else
    send(ids_.transfer_table_to_dram, ids_.metrics_table);
  std::vector<std::uint8_t> out(std::min<std::size_t>(size, kDriverTableSize));
  gpu_.device().read_vram(driver_table_paddr_, out);
  return out;
}

std::vector<std::vector<std::uint64_t>> AmSmu::read_aca_banks(bool uncorrectable) {
  if (!ids_.mi) return {};
  const auto count = send(uncorrectable ? ids_.query_mca_count : ids_.query_mca_ce_count, 0, true);
  const auto dump = uncorrectable ? ids_.mca_dump : ids_.mca_ce_dump;
  std::vector<std::vector<std::uint64_t>> banks;
  for (std::uint32_t b = 0; b < std::min<std::uint32_t>(count, 64); ++b) {
    std::vector<std::uint64_t> regs_of_bank;
    for (std::uint32_t r = 0; r < 16; ++r) {
      const std::uint64_t hi = send(dump, b << 16 | (r * 8 + 4), true);
      const std::uint64_t lo = send(dump, b << 16 | (r * 8), true);
      regs_of_bank.push_back(hi << 32 | lo);
    }
    banks.push_back(std::move(regs_of_bank));
  }
  return banks;
}

}  // namespace wavescope::hw::am
