// The fake GPU's PSP (am-driver.md §19.2 item 4): the bootloader state machine (ready bit, the
// C2PMSG_36/35 handshake, the msg1 payload checked against the expected component and the order
// recorded, SOS alive after LOAD_SOSDRV), the KM ring (create/destroy through C2PMSG_64/69/70/71,
// ready bit with status bits 0..15), and frame processing at C2PMSG_67: each 16-dword frame read
// from VRAM (MC → paddr), its command answered — LOAD_TOC with the configured TMR size, LOAD_IP_FW
// recorded with the SHA-256 of the bytes, SETUP_TMR checked, AUTOLOAD_RLC (RLC bootload complete),
// SRIOV_SPATIAL_PART — then status and fence written.
//
// Settings: psp.tmr_size (LOAD_TOC answer, default 0x100000 on MP0 13.0.0, else 0), psp.verify
// (default 1: a bootloader payload that is not the expected component leaves the bootloader
// busy), psp.fwdir (the firmware the payloads are checked against; default synthetic).
// Faults: psp:status,cmd=ID[,value=V][,nth=N]; psp:fence-lost[,cmd=ID][,nth=N];
// psp:sos-never-alive; psp:bootloader-not-ready; psp:ring-fail[,value=V].

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/psp_model.hpp"
#include "sim/am/smu_model.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/am/firmware_set.hpp"
#include "wavescope/hw/am/psp.hpp"

namespace wavescope::hw::sim::am {

namespace {

using hw::am::psp_bl::kLoadSosDrv;
constexpr std::uint32_t kReady = 0x8000'0000u;
constexpr std::uint32_t kStatusBadCommand = 0xFFFF'0007u;  // an invalid command id
constexpr std::uint32_t kStatusBadTmr = 0xFFFF'000Au;

std::uint32_t component_of(std::uint32_t command, bool mp0_14) {
  namespace bl = hw::am::psp_bl;
  namespace fw = hw::am::psp_fw;
  switch (command) {
  case bl::kLoadKeyDatabase: return fw::kKdb;
  case bl::kLoadTosSplTable: return mp0_14 ? fw::kSpl : fw::kKdb;
  case bl::kLoadSysDrv: return fw::kSysDrv;
  case bl::kLoadSocDrv: return fw::kSocDrv;
  case bl::kLoadIntfDrv: return fw::kIntfDrv;
  case bl::kLoadDbgDrv: return fw::kDbgDrv;
  case bl::kLoadRasDrv: return fw::kRasDrv;
  case bl::kLoadSosDrv: return fw::kSos;
  default: return 0;
  }
}

const BlockModelRegistration kPsp("psp", 10, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (gpu.ip_version("MP0").major == 0) return nullptr;
  return std::make_unique<PspModel>(gpu);
});

}  // namespace

PspModel::PspModel(FakeGpu &gpu) : gpu_(gpu) {
  const auto mp0 = gpu_.ip_version("MP0");
  mp0_14_ = mp0.major >= 14;
  const std::string prefix = mp0_14_ ? "mp0.MPASP_SMN_C2PMSG_" : "mp0.MP0_SMN_C2PMSG_";
  auto k = [&](unsigned n) { return gpu_.key(prefix + std::to_string(n)); };
  r35_ = k(35), r36_ = k(36), r64_ = k(64), r67_ = k(67), r69_ = k(69), r70_ = k(70), r71_ = k(71),
  r81_ = k(81);
  auto &regs = gpu_.registers();
  regs.on_read(
      r35_, [this](RegisterKey, std::uint32_t) { return bootloader_status(); }, "psp");
  regs.on_write(
      r35_, [this](RegisterKey, std::uint32_t v, std::uint32_t) { bootloader(v); }, "psp");
  regs.own(r36_, "psp");
  regs.on_read(
      r81_, [this](RegisterKey, std::uint32_t) { return sos_alive_ ? 0x1u : 0u; }, "psp");
  regs.on_read(
      r64_, [this](RegisterKey, std::uint32_t) { return ring_status(); }, "psp");
  regs.on_write(
      r64_, [this](RegisterKey, std::uint32_t v, std::uint32_t) { ring_control(v); }, "psp");
  regs.own(r69_, "psp");
  regs.own(r70_, "psp");
  regs.own(r71_, "psp");
  regs.on_write(
      r67_, [this](RegisterKey, std::uint32_t v, std::uint32_t old) { frames(old, v); }, "psp");
}

PspModel::~PspModel() = default;

void PspModel::reset(ResetKind) {
  sos_alive_ = false;
  ring_ready_ = false;
  bootloader_busy_ = false;
  autoloaded_ = false;
  loads_.clear();
  commands_.clear();
}

hw::am::FirmwareSet &PspModel::expected() {
  if (!expected_) {
    if (const auto dir = gpu_.config().text("psp.fwdir"))
      source_ = std::make_unique<hw::am::DirectoryFirmware>(*dir);
    else
      source_ = std::make_unique<hw::am::SyntheticFirmware>();
    expected_ = std::make_unique<hw::am::FirmwareSet>(
        *source_, hw::am::FirmwareVersions{gpu_.ip_version("GC"), gpu_.ip_version("MP0"),
                                           gpu_.ip_version("MP1"), gpu_.ip_version("SDMA0")});
  }
  return *expected_;
}

std::uint32_t PspModel::bootloader_status() const {
  if (has_fault("bootloader-not-ready") || bootloader_busy_) return 0;
  return kReady;
}

void PspModel::bootloader(std::uint32_t command) {
  const std::uint64_t paddr = gpu_.mc_to_paddr(std::uint64_t{gpu_.registers().peek(r36_)} << 20);
  const auto component = component_of(command, mp0_14_);
  BootloaderLoad load{command, component, paddr, {}, false};
  std::string verdict;
  if (component == 0) {
    verdict = "unknown bootloader command";
    bootloader_busy_ = true;
  } else {
    bool known = false;
    std::span<const std::uint8_t> want;
    try {
      known = expected().has_sos(component);
      if (known) want = expected().sos(component);
    } catch (const Error &e) {
      verdict = fmt::format("cannot check: {}", e.what());
    }
    std::vector<std::uint8_t> got(known ? want.size() : 0);
    if (known && paddr + got.size() <= gpu_.vram().size()) gpu_.vram().read_bytes(paddr, got);
    load.sha256 = known ? sha256_hex(got) : std::string();
    load.verified = known && std::equal(got.begin(), got.end(), want.begin(), want.end());
    if (!known && verdict.empty()) verdict = "the container has no such component";
    if (!load.verified && gpu_.config().number("psp.verify", 1) != 0) bootloader_busy_ = true;
  }
  loads_.push_back(load);
  gpu_.note(fmt::format(
      "psp: bootloader {} ({}) from paddr 0x{:X}{}", hw::am::psp_bootloader_command_name(command),
      hw::am::psp_fw_type_name(component), paddr,
      load.verified ? "" : " — not the expected bytes" + (verdict.empty() ? "" : ": " + verdict)));
  if (command == kLoadSosDrv && !bootloader_busy_ && !has_fault("sos-never-alive"))
    sos_alive_ = true;
}

std::uint32_t PspModel::ring_status() const {
  if (!sos_alive_) return 0;
  if (const auto *f = fault("ring-fail"))
    return kReady | static_cast<std::uint32_t>(f->number("value", 0x1) & 0xFFFF);
  return kReady;
}

void PspModel::ring_control(std::uint32_t value) {
  auto &regs = gpu_.registers();
  if (value == 0x3'0000) {  // destroy
    ring_ready_ = false;
    regs.poke(r71_, 0);
    gpu_.note("psp: KM ring destroyed");
    return;
  }
  if ((value >> 16) == 2 && sos_alive_) {
    ring_base_ = gpu_.mc_to_paddr(regs.peek(r69_) | std::uint64_t{regs.peek(r70_)} << 32);
    ring_size_ = regs.peek(r71_);
    ring_ready_ = true;
    regs.poke(r67_, 0);
    gpu_.note(
        fmt::format("psp: KM ring created at paddr 0x{:X}, 0x{:X} bytes", ring_base_, ring_size_));
  }
}

std::uint32_t PspModel::read32(std::uint64_t paddr) const { return gpu_.vram().read32(paddr); }

void PspModel::frames(std::uint32_t old_wptr, std::uint32_t wptr) {
  if (!ring_ready_) {
    gpu_.note("psp: C2PMSG_67 written without a ring");
    return;
  }
  for (std::uint32_t at = old_wptr; at + 16 <= wptr; at += 16) {
    const std::uint64_t frame =
        ring_base_ + (std::uint64_t{at} * 4) % (ring_size_ ? ring_size_ : 1);
    const std::uint64_t cmd =
        gpu_.mc_to_paddr(read32(frame) | std::uint64_t{read32(frame + 4)} << 32);
    const std::uint64_t fence =
        gpu_.mc_to_paddr(read32(frame + 12) | std::uint64_t{read32(frame + 16)} << 32);
    const std::uint32_t fence_value = read32(frame + 20);
    process(cmd, fence, fence_value, at + 16);
  }
}

void PspModel::process(std::uint64_t cmd, std::uint64_t fence, std::uint32_t fence_value,
                       std::uint32_t wptr) {
  namespace pc = hw::am::psp_cmd;
  const std::uint32_t id = read32(cmd + 8);
  Command c{id, wptr, 0, 0, 0, {}, false, 0};
  std::uint32_t status = 0, tmr_answer = 0;
  switch (id) {
  case pc::kLoadToc:
    c.size = read32(cmd + 36);
    tmr_answer = static_cast<std::uint32_t>(gpu_.config().number(
        "psp.tmr_size", gpu_.ip_version("MP0") == regs::IpVersion{13, 0, 0} ? 0x100'0000 : 0));
    break;
  case pc::kLoadIpFw: {
    c.address = read32(cmd + 28) | std::uint64_t{read32(cmd + 32)} << 32;
    c.size = read32(cmd + 36);
    c.fw_type = read32(cmd + 40);
    std::vector<std::uint8_t> bytes(c.size);
    const auto paddr = gpu_.mc_to_paddr(c.address);
    if (paddr + bytes.size() <= gpu_.vram().size()) gpu_.vram().read_bytes(paddr, bytes);
    c.sha256 = sha256_hex(bytes);
    c.verified = verify_image(c.fw_type, bytes);
    if (c.fw_type == hw::am::gfx_fw::kSmu) notify_smu_loaded();
    break;
  }
  case pc::kSetupTmr:
    c.address = read32(cmd + 28) | std::uint64_t{read32(cmd + 32)} << 32;
    c.size = read32(cmd + 36);
    if (c.size > hw::am::AmPsp::kMaxTmrSize || (c.address & 0xFFFFF) != 0) status = kStatusBadTmr;
    break;
  case pc::kAutoloadRlc:
    autoloaded_ = true;
    if (gpu_.has_register("gc.RLC_RLCS_BOOTLOAD_STATUS")) {
      const auto key = gpu_.key("gc.RLC_RLCS_BOOTLOAD_STATUS");
      const auto &reg =
          *regs::resolve_register(gpu_.register_map(), "gc.RLC_RLCS_BOOTLOAD_STATUS").reg;
      const auto *f = reg.field("BOOTLOAD_COMPLETE");
      if (f)
        gpu_.registers().poke(key,
                              gpu_.registers().peek(key) | static_cast<std::uint32_t>(f->mask()));
    }
    break;
  case pc::kSriovSpatialPart: c.size = read32(cmd + 28); break;
  default: status = kStatusBadCommand; break;
  }
  ++command_counts_[id];
  if (const auto *f = fault_for("status", id))
    status = static_cast<std::uint32_t>(f->number("value", 0xFFFF'0001));
  c.status = status;
  commands_.push_back(c);
  gpu_.vram().write32(cmd + 864, status);
  if (id == pc::kLoadToc) gpu_.vram().write32(cmd + 880, tmr_answer);
  gpu_.note(fmt::format("psp: {}{} status 0x{:X}", hw::am::psp_command_name(id),
                        id == pc::kLoadIpFw
                            ? fmt::format(" {} 0x{:X} bytes{}", hw::am::gfx_fw_type_name(c.fw_type),
                                          c.size, c.verified ? "" : " (unexpected bytes)")
                            : std::string(),
                        status));
  if (fault_for("fence-lost", id)) {
    gpu_.note("psp: fence not written (fault)");
    return;
  }
  gpu_.vram().write32(fence, fence_value);
}

bool PspModel::verify_image(std::uint32_t type, const std::vector<std::uint8_t> &bytes) {
  try {
    auto &fw = expected();
    if (fw.smu_image() && type == hw::am::gfx_fw::kSmu)
      return std::equal(bytes.begin(), bytes.end(), fw.smu_image()->bytes.begin(),
                        fw.smu_image()->bytes.end());
    for (const auto &image : fw.images())
      for (const auto t : image.fw_types)
        if (t == type)
          return std::equal(bytes.begin(), bytes.end(), image.bytes.begin(), image.bytes.end());
    if (type == hw::am::gfx_fw::kRegList && fw.has_sos(hw::am::psp_fw::kRl)) {
      const auto rl = fw.sos(hw::am::psp_fw::kRl);
      return std::equal(bytes.begin(), bytes.end(), rl.begin(), rl.end());
    }
  } catch (const Error &) {
  }
  return false;
}

void PspModel::notify_smu_loaded() {
  if (auto *smu = dynamic_cast<SmuModel *>(gpu_.block("smu"))) smu->set_running(true);
}

const FaultRequest *PspModel::fault(const std::string &kind) const {
  for (const auto &f : faults_)
    if (f.kind == kind) return &f;
  return nullptr;
}

bool PspModel::has_fault(const std::string &kind) const { return fault(kind) != nullptr; }

const FaultRequest *PspModel::fault_for(const std::string &kind, std::uint32_t cmd_id) {
  for (const auto &f : faults_) {
    if (f.kind != kind) continue;
    if (f.has("cmd") && f.number("cmd", 0) != cmd_id) continue;
    const auto nth = f.number("nth", 0);
    if (nth != 0 && command_counts_[cmd_id] != nth) continue;
    return &f;
  }
  return nullptr;
}

bool PspModel::arm_fault(const FaultRequest &f) {
  const auto kinds = fault_kinds();
  if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) return false;
  (void)f.number("cmd", 0), (void)f.number("value", 0), (void)f.number("nth", 0);  // validate
  faults_.push_back(f);
  command_counts_.clear();  // nth counts from when the fault is armed
  return true;
}

void PspModel::clear_faults() { faults_.clear(); }

std::vector<std::string> PspModel::fault_kinds() const {
  return {"status", "fence-lost", "sos-never-alive", "bootloader-not-ready", "ring-fail"};
}

nlohmann::json PspModel::save() const {
  nlohmann::json loads = nlohmann::json::array();
  for (const auto &l : loads_)
    loads.push_back({{"command", l.command},
                     {"component", l.component},
                     {"paddr", l.paddr},
                     {"sha256", l.sha256},
                     {"verified", l.verified}});
  nlohmann::json commands = nlohmann::json::array();
  for (const auto &c : commands_)
    commands.push_back({{"cmd", c.cmd_id},
                        {"wptr", c.wptr},
                        {"fw_type", c.fw_type},
                        {"size", c.size},
                        {"address", c.address},
                        {"sha256", c.sha256},
                        {"verified", c.verified},
                        {"status", c.status}});
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  nlohmann::json counts = nlohmann::json::object();
  for (const auto &[id, n] : command_counts_) counts[std::to_string(id)] = n;
  return {{"sos_alive", sos_alive_},
          {"ring_ready", ring_ready_},
          {"ring_base", ring_base_},
          {"ring_size", ring_size_},
          {"bootloader_busy", bootloader_busy_},
          {"autoloaded", autoloaded_},
          {"loads", loads},
          {"commands", commands},
          {"faults", faults},
          {"command_counts", counts}};
}

void PspModel::load(const nlohmann::json &j) {
  sos_alive_ = j.value("sos_alive", false);
  ring_ready_ = j.value("ring_ready", false);
  ring_base_ = j.value("ring_base", std::uint64_t{0});
  ring_size_ = j.value("ring_size", std::uint64_t{0});
  bootloader_busy_ = j.value("bootloader_busy", false);
  autoloaded_ = j.value("autoloaded", false);
  loads_.clear();
  for (const auto &l : j.value("loads", nlohmann::json::array()))
    loads_.push_back({l.value("command", 0u), l.value("component", 0u),
                      l.value("paddr", std::uint64_t{0}), l.value("sha256", std::string()),
                      l.value("verified", false)});
  commands_.clear();
  for (const auto &c : j.value("commands", nlohmann::json::array()))
    commands_.push_back({c.value("cmd", 0u), c.value("wptr", 0u), c.value("fw_type", 0u),
                         c.value("size", std::uint64_t{0}), c.value("address", std::uint64_t{0}),
                         c.value("sha256", std::string()), c.value("verified", false),
                         c.value("status", 0u)});
  faults_.clear();
  for (const auto &f : j.value("faults", nlohmann::json::array()))
    faults_.push_back(parse_fault_request(f.get<std::string>()));
  command_counts_.clear();
  const auto counts = j.value("command_counts", nlohmann::json::object());
  for (const auto &[k, v] : counts.items())
    command_counts_[static_cast<std::uint32_t>(std::stoul(k))] = v.get<std::uint64_t>();
}

nlohmann::json PspModel::status() const {
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  std::size_t verified = 0;
  for (const auto &l : loads_) verified += l.verified;
  for (const auto &c : commands_) verified += c.verified;
  return {{"sos_alive", sos_alive_},
          {"ring", ring_ready_ ? fmt::format("0x{:X}+0x{:X}", ring_base_, ring_size_) : "none"},
          {"bootloader_loads", loads_.size()},
          {"commands", commands_.size()},
          {"verified_images", verified},
          {"rlc_autoloaded", autoloaded_},
          {"faults", faults}};
}

}  // namespace wavescope::hw::sim::am
