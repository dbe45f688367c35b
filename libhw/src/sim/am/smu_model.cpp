#include "sim/am/smu_model.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"
#include "wavescope/hw/am/smu_metrics.hpp"

namespace wavescope::hw::sim::am {

namespace {

constexpr std::uint32_t kOk = 1, kFail = 0xFF, kUnknown = 0xFE, kPrereq = 0xFD;
constexpr std::uint32_t kDebugMode1Reset = 2;

const BlockModelRegistration kSmu("smu", 20, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (gpu.ip_version("MP1").major == 0) return nullptr;
  return std::make_unique<SmuModel>(gpu);
});

std::vector<std::uint32_t> parse_levels(const std::string &text, const std::string &key) {
  std::vector<std::uint32_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto comma = text.find(',', at);
    const auto item = text.substr(at, comma == std::string::npos ? comma : comma - at);
    const auto v = parse_unsigned(item);
    if (!v || *v == 0 || *v > 0xFFFF)
      throw Error(ErrorKind::Usage,
                  fmt::format("setting {}={}: expected MHz values 1..65535 separated by commas",
                              key, text));
    out.push_back(static_cast<std::uint32_t>(*v));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

SmuModel::SmuModel(FakeGpu &gpu) : gpu_(gpu) {
  const auto mp1 = gpu_.ip_version("MP1");
  ids_ = hw::am::SmuIds::for_mp1(mp1.major, mp1.minor, mp1.revision);
  msg_ = gpu_.key("mp1.MP1_SMN_C2PMSG_66");
  arg_ = gpu_.key("mp1.MP1_SMN_C2PMSG_82");
  resp_ = gpu_.key("mp1.MP1_SMN_C2PMSG_90");
  dbg_msg_ = gpu_.key("mp1.MP1_SMN_C2PMSG_75");
  dbg_arg_ = gpu_.key("mp1.MP1_SMN_C2PMSG_53");
  dbg_resp_ = gpu_.key("mp1.MP1_SMN_C2PMSG_54");
  auto &regs = gpu_.registers();
  for (const auto k : {arg_, dbg_arg_}) regs.own(k, "smu");
  // A delayed answer (smu.latency_us, smu:slow) appears once its time has come.
  for (const auto k : {resp_, dbg_resp_})
    regs.on_read(
        k,
        [this](RegisterKey key, std::uint32_t stored) {
          auto it = pending_.find(key);
          if (it == pending_.end()) return stored;
          if (gpu_.clock().now() < it->second.ready_at) return 0u;
          gpu_.registers().poke(it->second.arg_key, it->second.result);
          gpu_.registers().poke(key, it->second.response);
          const auto response = it->second.response;
          pending_.erase(it);
          return response;
        },
        "smu");
  regs.on_write(
      msg_, [this](RegisterKey, std::uint32_t v, std::uint32_t) { on_message(false, v); }, "smu");
  regs.on_write(
      dbg_msg_, [this](RegisterKey, std::uint32_t v, std::uint32_t) { on_message(true, v); },
      "smu");
}

void SmuModel::reset(ResetKind) {
  // GC 9 parts start their SMU firmware at power-on; newer ones get it from the PSP.
  running_ = gpu_.ip_version("GC").major < 11;
  pending_.clear();
  features_ = false;
  driver_table_ = 0;
  ppt_ = 0;
  soft_.clear();
}

std::vector<std::uint32_t> SmuModel::levels(std::uint32_t clock) const {
  std::string name;
  if (clock == ids_.gfxclk) name = "gfxclk";
  if (clock == ids_.socclk) name = "socclk";
  if (clock == ids_.uclk) name = "uclk";
  if (clock == ids_.fclk) name = "fclk";
  if (name.empty()) return {};
  const std::string key = "smu.levels." + name;
  if (const auto text = gpu_.config().text(key)) return parse_levels(*text, key);
  // Plausible tables (real boards differ; tier 2): counts as amdgpu shows them on RDNA3/4 and
  // MI300 boards.
  const auto chip = gpu_.config().chip;
  if (ids_.mi) {
    if (name == "socclk") return {28, 400, 800, 1143};
    if (name == "uclk") return {900, 1300};
    if (name == "fclk") return {1200, 1600, 1900, 2000};
    return {};
  }
  if (chip == "navi31") {
    if (name == "gfxclk") return {500, 2526};
    if (name == "uclk") return {96, 456, 772, 1249};
    if (name == "fclk") return {400, 1400, 1800, 1900};
    return {400, 960, 1200};
  }
  if (name == "gfxclk") return {500, 2970};
  if (name == "uclk") return {96, 456, 772, 1258};
  if (name == "fclk") return {400, 1400, 1800, 2000};
  return {400, 1000, 1200};
}

const FaultRequest *SmuModel::fault_for(const std::string &kind, bool debug, std::uint32_t msg) {
  for (const auto &f : faults_) {
    if (f.kind != kind) continue;
    if (f.has("msg") && f.number("msg", 0) != msg) continue;
    if (f.has("debug") && (f.number("debug", 0) != 0) != debug) continue;
    const auto nth = f.number("nth", 0);
    if (nth != 0 && message_count_ != nth) continue;
    return &f;
  }
  return nullptr;
}

void SmuModel::on_message(bool debug, std::uint32_t msg) {
  ++message_count_;
  auto &regs = gpu_.registers();
  const RegisterKey arg_key = debug ? dbg_arg_ : arg_, resp_key = debug ? dbg_resp_ : resp_;
  const std::uint32_t arg = regs.peek(arg_key);
  Message m{debug, msg, arg, 0, arg};
  const bool dead = std::any_of(faults_.begin(), faults_.end(),
                                [](const FaultRequest &f) { return f.kind == "dead"; });
  if (!running_ || dead || fault_for("timeout", debug, msg)) {
    if (messages_.size() < 65536) messages_.push_back(m);
    return;  // no answer: the response register stays 0
  }
  std::uint32_t result = arg;
  std::uint32_t response = handle(debug, msg, arg, result);
  if (const auto *f = fault_for("response", debug, msg))
    response = static_cast<std::uint32_t>(f->number("value", kFail));
  m.response = response;
  m.result = result;
  if (messages_.size() < 65536) messages_.push_back(m);
  std::uint64_t latency_us = gpu_.config().number("smu.latency_us", 0);
  if (const auto *slow = fault_for("slow", debug, msg)) latency_us = slow->number("us", 1000);
  pending_.erase(resp_key);
  if (latency_us == 0) {
    regs.poke(arg_key, result);
    regs.poke(resp_key, response);
    return;
  }
  regs.poke(resp_key, 0);
  pending_[resp_key] = {arg_key, result, response,
                        gpu_.clock().now() + std::chrono::microseconds(latency_us)};
}

std::uint32_t SmuModel::handle(bool debug, std::uint32_t msg, std::uint32_t arg,
                               std::uint32_t &result) {
  if (debug) {
    if (msg != kDebugMode1Reset) return kUnknown;
    gpu_.note("smu: debug Mode1Reset");
    gpu_.reset(ResetKind::Mode1);
    return kOk;
  }
  const auto &id = ids_;
  if (msg == id.get_smu_version) {
    result = static_cast<std::uint32_t>(gpu_.config().number("smu.version", 0x004E'2B00));
    return kOk;
  }
  if (msg == id.enable_all_features) {
    features_ = true;
    return kOk;
  }
  if (msg == id.driver_dram_high) {
    driver_table_ = (driver_table_ & 0xFFFF'FFFFull) | std::uint64_t{arg} << 32;
    return kOk;
  }
  if (msg == id.driver_dram_low) {
    driver_table_ = (driver_table_ & ~0xFFFF'FFFFull) | arg;
    return kOk;
  }
  if ((id.transfer_table_to_dram && msg == id.transfer_table_to_dram) ||
      (id.get_metrics_table && msg == id.get_metrics_table)) {
    if (!id.mi && arg != id.metrics_table) return kFail;  // only the metrics table is scripted
    if (driver_table_ == 0) return kPrereq;
    write_metrics();
    return kOk;
  }
  if (msg == id.get_dpm_freq_by_index) {
    const auto lv = levels(arg >> 16);
    const auto index = arg & 0xFFFF;
    if (index == 0xFF) {
      result = static_cast<std::uint32_t>(lv.size());
      return kOk;
    }
    if (index >= lv.size()) return kFail;
    result = lv[index];
    return kOk;
  }
  if (msg == id.set_soft_min || msg == id.set_soft_max) {
    const auto clock = arg >> 16;
    if (levels(clock).empty()) return kFail;
    auto &limits = soft_.try_emplace(clock, 0, 0xFFFF).first->second;
    (msg == id.set_soft_min ? limits.first : limits.second) = arg & 0xFFFF;
    return kOk;
  }
  if (msg == id.set_ppt_limit) {
    ppt_ = arg;
    return kOk;
  }
  if ((id.mode1_reset && msg == id.mode1_reset) ||
      (id.gfx_driver_reset && msg == id.gfx_driver_reset && arg == 1)) {
    gpu_.note("smu: mode-1 reset");
    gpu_.reset(ResetKind::Mode1);
    return kOk;
  }
  if (id.query_mca_count && (msg == id.query_mca_count || msg == id.query_mca_ce_count)) {
    result = static_cast<std::uint32_t>(gpu_.config().number("smu.mca_banks", 0));
    return kOk;
  }
  if (id.mca_dump && (msg == id.mca_dump || msg == id.mca_ce_dump)) {
    result = 0;
    return kOk;
  }
  return kUnknown;
}

void SmuModel::write_metrics() {
  const auto mp1 = gpu_.ip_version("MP1");
  hw::am::SmuMetrics m;
  try {
    m = hw::am::smu_metrics_template(mp1);
  } catch (const Error &) {
    return;  // no scripted layout for this SMU (MI300): the table stays as it is
  }
  const auto &c = gpu_.config();
  auto current = [&](std::uint32_t clock) -> std::uint16_t {
    const auto lv = levels(clock);
    if (lv.empty()) return 0;
    const auto it = soft_.find(clock);
    const std::uint32_t want =
        it == soft_.end() || it->second.first == 0 ? lv.front() : it->second.first;
    return static_cast<std::uint16_t>(want);
  };
  auto n = [&](const std::string &key, std::uint64_t fallback) {
    return static_cast<std::uint16_t>(c.number("smu.metrics." + key, fallback));
  };
  m.gfxclk_pre_ds = m.gfxclk_post_ds = n("gfxclk", current(ids_.gfxclk));
  m.memclk_pre_ds = m.memclk_post_ds = n("memclk", current(ids_.uclk));
  m.fclk_pre_ds = m.fclk_post_ds = n("fclk", current(ids_.fclk));
  m.gfx_activity = n("gfx_activity", 0);
  m.uclk_activity = n("uclk_activity", 0);
  m.socket_power = n("socket_power", 32);
  m.power_limit = n("power_limit", ppt_ ? ppt_ : (c.chip == "navi31" ? 355 : 304));
  m.fan_rpm = n("fan_rpm", 0);
  m.fan_pwm = static_cast<std::uint8_t>(n("fan_pwm", 0));
  const std::map<std::string, std::uint16_t> temps = {
      {"EDGE", 35}, {"HOTSPOT", 41}, {"MEM", 38}, {"HOTSPOT_G", 40}, {"HOTSPOT_GFX", 40}};
  for (auto &[name, value] : m.temperatures) {
    const auto it = temps.find(name);
    value = n("temp." + name, it == temps.end() ? 0 : it->second);
  }
  for (auto &[name, value] : m.voltages)
    value = n("voltage." + name, name == "GFX" || name == "VDD_GFX" ? 750 : 0);
  for (auto &[name, value] : m.throttling)
    value = static_cast<std::uint8_t>(n("throttle." + name, 0));
  const auto bytes = hw::am::encode_smu_metrics(mp1, m);
  const auto paddr = gpu_.mc_to_paddr(driver_table_);
  if (paddr + bytes.size() <= gpu_.vram().size()) gpu_.vram().write_bytes(paddr, bytes);
}

bool SmuModel::arm_fault(const FaultRequest &f) {
  const auto kinds = fault_kinds();
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) return false;
  (void)f.number("msg", 0), (void)f.number("nth", 0), (void)f.number("value", 0),
      (void)f.number("debug", 0), (void)f.number("us", 0);
  faults_.push_back(f);
  message_count_ = 0;  // nth counts from when the fault is armed
  return true;
}

void SmuModel::clear_faults() { faults_.clear(); }

std::vector<std::string> SmuModel::fault_kinds() const {
  return {"timeout", "response", "dead", "slow"};
}

nlohmann::json SmuModel::save() const {
  nlohmann::json soft = nlohmann::json::object();
  for (const auto &[clock, limits] : soft_)
    soft[std::to_string(clock)] = {limits.first, limits.second};
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"running", running_},
          {"features", features_},
          {"driver_table", driver_table_},
          {"ppt", ppt_},
          {"soft", soft},
          {"faults", faults},
          {"message_count", message_count_}};
}

void SmuModel::load(const nlohmann::json &j) {
  running_ = j.value("running", running_);
  features_ = j.value("features", false);
  driver_table_ = j.value("driver_table", std::uint64_t{0});
  ppt_ = j.value("ppt", 0u);
  soft_.clear();
  const auto soft = j.value("soft", nlohmann::json::object());
  for (const auto &[k, v] : soft.items())
    soft_[static_cast<std::uint32_t>(std::stoul(k))] = {v.at(0).get<std::uint32_t>(),
                                                        v.at(1).get<std::uint32_t>()};
  faults_.clear();
  for (const auto &f : j.value("faults", nlohmann::json::array()))
    faults_.push_back(parse_fault_request(f.get<std::string>()));
  message_count_ = j.value("message_count", std::uint64_t{0});
}

nlohmann::json SmuModel::status() const {
  nlohmann::json soft = nlohmann::json::object();
  for (const auto &[clock, limits] : soft_)
    soft[hw::am::smu_clock_name(ids_, clock)] = {{"min", limits.first}, {"max", limits.second}};
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"running", running_},
          {"features_enabled", features_},
          {"driver_table", fmt::format("0x{:X}", driver_table_)},
          {"ppt_limit", ppt_},
          {"soft_limits", soft},
          {"faults", faults}};
}

}  // namespace wavescope::hw::sim::am
