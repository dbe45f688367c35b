#include "sim/am/fake_gpu.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/register_trace.hpp"

namespace wavescope::hw::sim::am {

namespace {

constexpr std::uint64_t kDiscoveryOffsetFromTop = 64 << 10;
constexpr std::uint64_t kMiB = 1ull << 20;
constexpr int kStateFormat = 1;

}  // namespace

PcieFunctionIdentity fake_gpu_identity(const FakeGpuConfig &c) {
  PcieFunctionIdentity id;
  id.vendor_id = 0x1002;
  id.device_id = c.device_id;
  id.revision = 0xC0;
  id.class_code = 0x030000;
  id.subsystem_vendor_id = 0x1002;
  id.subsystem_id = 0x0001;
  // BAR0's size is the Resizable-BAR size; the spec's size here only marks it implemented.
  id.bars[0] = {c.bar0_size, true, true, false};
  id.bars[2] = {c.bar2_size, true, true, false};
  id.bars[4] = {256, false, false, true};  // legacy I/O, as on real AMD GPUs (unused)
  id.bars[5] = {c.bar5_size, false, false, false};
  // Supported sizes 256 MiB (n = 8) .. bar0_size (n = log2(size) - 20): capability bits n + 4.
  const unsigned top = static_cast<unsigned>(std::bit_width(c.bar0_size) - 1) - 20;
  std::uint32_t supported = 0;
  for (unsigned n = 8; n <= top && n < 28; ++n) supported |= 1u << (n + 4);
  id.rebar_supported = supported;
  id.rebar_default_index = 8;  // 256 MiB until somebody resizes it
  return id;
}

FakeGpu::FakeGpu(FakeGpuConfig config, Clock &clock)
    : FakeGpu(RestoreTag{}, std::move(config), clock) {
  // A new chip: the discovery ROM is in VRAM, every block at its reset values.
  power_cycle();
  notes_.clear();
}

void FakeGpu::power_cycle() {
  const auto rom = hw::am::build_discovery_rom(hw::am::chip_profile(config_.chip));
  vram_.write_bytes(config_.vram_size - kDiscoveryOffsetFromTop, rom);
  config_space_.reset();
  reset(ResetKind::PowerOn);
}

FakeGpu::FakeGpu(RestoreTag, FakeGpuConfig config, Clock &clock)
    : config_(std::move(config)), clock_(clock), vram_(config_.vram_size),
      config_space_(fake_gpu_identity(config_)) {
  if (config_.vram_size % kMiB != 0 || config_.vram_size < 64 * kMiB)
    throw Error(ErrorKind::Usage, fmt::format("fake GPU: VRAM size 0x{:X} is not a whole number "
                                              "of MiB of at least 64 MiB",
                                              config_.vram_size));
  build();
}

FakeGpu::~FakeGpu() = default;

void FakeGpu::build() {
  const auto rom = hw::am::build_discovery_rom(hw::am::chip_profile(config_.chip));
  discovery_ = hw::am::parse_ip_discovery(rom);
  register_map_ = regs::RegisterMap::from_discovery(discovery_);
  doorbell_slots_.assign(config_.bar2_size / 8, 0);
  auto optional_key = [this](std::string_view name) -> RegisterKey {
    return has_register(name) ? key(name) : 0;
  };
  rsmu_index_ = optional_key("nbio.BIF_BX_PF0_RSMU_INDEX");
  rsmu_data_ = optional_key("nbio.BIF_BX_PF0_RSMU_DATA");
  pcie_index2_ = optional_key("nbio.BIF_BX0_PCIE_INDEX2");
  pcie_index2_hi_ = optional_key("nbio.BIF_BX0_PCIE_INDEX2_HI");
  pcie_data2_ = optional_key("nbio.BIF_BX0_PCIE_DATA2");
  install_core_hooks();
  for (const auto &entry : registered_block_models())
    if (auto model = entry.factory(*this)) blocks_.push_back(std::move(model));
}

RegisterKey FakeGpu::key(std::string_view name, unsigned instance) const {
  const auto ref = regs::resolve_register(register_map_, name);
  return regs::register_address(*ref.block, *ref.reg, instance);
}

bool FakeGpu::has_register(std::string_view name) const {
  try {
    (void)key(name);
    return true;
  } catch (const Error &) {
    return false;
  }
}

regs::IpVersion FakeGpu::ip_version(std::string_view hwip) const {
  std::string upper(hwip);
  for (auto &ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (const auto &die : discovery_.dies)
    for (const auto &e : die.ips)
      for (const auto &n : hw::am::hwip_names(e.hw_id))
        if (n == upper) return {e.major, e.minor, e.revision};
  return {};
}

std::uint64_t FakeGpu::mm_window_address() const {
  const std::uint64_t index = registers_.peek(kMmIndex);
  return (std::uint64_t{registers_.peek(kMmIndexHi)} << 31) | (index & 0x7FFF'FFFF);
}

void FakeGpu::install_core_hooks() {
  auto &r = registers_;
  r.on_read(
      kRccConfigMemsize,
      [this](RegisterKey, std::uint32_t) {
        return static_cast<std::uint32_t>(config_.vram_size >> 20);
      },
      "core");
  r.on_read(
      kRccIovFuncIdentifier,
      [this](RegisterKey, std::uint32_t) { return config_.vf ? 0x8000'0001u : 0u; }, "core");
  // The VRAM window: MM_INDEX bit 31 selects VRAM space, MM_INDEX_HI the bits from 31 up.
  r.own(kMmIndex, "core");
  r.own(kMmIndexHi, "core");
  r.on_read(
      kMmData,
      [this](RegisterKey, std::uint32_t) -> std::uint32_t {
        const auto a = mm_window_address();
        if (!(registers_.peek(kMmIndex) & 0x8000'0000u) || a + 4 > config_.vram_size) return 0;
        return vram_.read32(a & ~3ull);
      },
      "core");
  r.on_write(
      kMmData,
      [this](RegisterKey, std::uint32_t value, std::uint32_t) {
        const auto a = mm_window_address();
        if ((registers_.peek(kMmIndex) & 0x8000'0000u) && a + 4 <= config_.vram_size)
          vram_.write32(a & ~3ull, value);
      },
      "core");
  // RSMU: the index holds a byte address; DATA reaches the register at index / 4.
  if (rsmu_index_ && rsmu_data_) {
    r.own(rsmu_index_, "core");
    r.on_read(
        rsmu_data_,
        [this](RegisterKey, std::uint32_t) {
          return registers_.read(registers_.peek(rsmu_index_) / 4, AccessPath::Rsmu);
        },
        "core");
    r.on_write(
        rsmu_data_,
        [this](RegisterKey, std::uint32_t value, std::uint32_t) {
          registers_.write(registers_.peek(rsmu_index_) / 4, value, AccessPath::Rsmu);
        },
        "core");
  }
  // PCIE INDEX2: a byte address; bit 34 set = AID in bits 32..33 (key bits 32..33).
  if (pcie_index2_ && pcie_data2_) {
    auto target = [this]() -> RegisterKey {
      const std::uint64_t hi = pcie_index2_hi_ ? registers_.peek(pcie_index2_hi_) & 0xFF : 0;
      const std::uint64_t a = hi << 32 | registers_.peek(pcie_index2_);
      const std::uint64_t aid = (a >> 34) & 1 ? (a >> 32) & 3 : 0;
      return ((a & 0xFFFF'FFFFull) / 4) | aid << 32;
    };
    r.own(pcie_index2_, "core");
    if (pcie_index2_hi_) r.own(pcie_index2_hi_, "core");
    r.on_read(
        pcie_data2_,
        [this, target](RegisterKey, std::uint32_t) {
          return registers_.read(target(), AccessPath::PcieIndex2);
        },
        "core");
    r.on_write(
        pcie_data2_,
        [this, target](RegisterKey, std::uint32_t value, std::uint32_t) {
          registers_.write(target(), value, AccessPath::PcieIndex2);
        },
        "core");
  }
}

void FakeGpu::core_reset() {
  // The frame buffer aperture firmware programs: FB at MC 0, TOP = VRAM >> 24 (as tinygrad's
  // mock); a GMC model may set other values in its reset().
  if (has_register("mmhub.MMMC_VM_FB_LOCATION_BASE")) {
    for (unsigned i = 0; i < register_map_.block("mmhub")->bases.size(); ++i) {
      registers_.poke(key("mmhub.MMMC_VM_FB_LOCATION_BASE", i), 0);
      registers_.poke(key("mmhub.MMMC_VM_FB_LOCATION_TOP", i),
                      static_cast<std::uint32_t>(config_.vram_size >> 24));
    }
  }
}

void FakeGpu::reset(ResetKind kind) {
  registers_.clear_values();
  std::fill(doorbell_slots_.begin(), doorbell_slots_.end(), 0);
  core_reset();
  for (auto &b : blocks_) b->reset(kind);
  note(kind == ResetKind::PowerOn ? "core: power-on reset" : "core: mode-1 reset");
}

std::uint64_t FakeGpu::mc_to_paddr(std::uint64_t mc) const {
  if (mc_translation_) return mc_translation_(mc);
  std::uint64_t fb_base = 0;
  if (register_map_.block("mmhub") &&
      register_map_.block("mmhub")->table->find("MMMC_VM_FB_LOCATION_BASE"))
    fb_base = std::uint64_t{registers_.peek(key("mmhub.MMMC_VM_FB_LOCATION_BASE")) & 0xFFFFFF}
              << 24;
  return mc - fb_base;
}

void FakeGpu::set_mc_translation(std::function<std::uint64_t(std::uint64_t)> translate) {
  mc_translation_ = std::move(translate);
}

void FakeGpu::on_doorbell(std::function<void(const DoorbellWrite &)> handler) {
  doorbell_handlers_.push_back(std::move(handler));
}

void FakeGpu::note(std::string line) { notes_.push_back(std::move(line)); }

BlockModel *FakeGpu::block(std::string_view name) {
  for (auto &b : blocks_)
    if (b->name() == name) return b.get();
  return nullptr;
}

std::vector<BlockModel *> FakeGpu::blocks() {
  std::vector<BlockModel *> out;
  for (auto &b : blocks_) out.push_back(b.get());
  return out;
}

void FakeGpu::arm_fault(const std::string &text) {
  const auto fault = parse_fault_request(text);
  auto *b = block(fault.block);
  std::vector<std::string> names;
  for (auto &m : blocks_) names.push_back(m->name());
  if (!b)
    throw Error(ErrorKind::Usage,
                fmt::format("fault '{}': no block '{}' on this {} fake (blocks with faults: {})",
                            text, fault.block, config_.chip, fmt::join(names, ", ")));
  if (!b->arm_fault(fault))
    throw Error(ErrorKind::Usage,
                fmt::format("fault '{}': block {} has no fault '{}' (its faults: "
                            "{})",
                            text, fault.block, fault.kind, fmt::join(b->fault_kinds(), ", ")));
  note(fmt::format("core: fault armed: {}", text));
}

void FakeGpu::clear_faults() {
  for (auto &b : blocks_) b->clear_faults();
}

std::uint32_t FakeGpu::config_read(std::uint32_t offset, unsigned width) {
  return config_space_.read(offset, width);
}

void FakeGpu::config_write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  const bool master = bus_master();
  config_space_.write(offset, value, width);
  if (bus_master() != master)
    note(fmt::format("core: config COMMAND bus master {}", bus_master() ? "on" : "off"));
}

std::uint32_t FakeGpu::bar_read32(unsigned bar, std::uint64_t offset) {
  if (!config_space_.memory_enabled()) return 0xFFFF'FFFFu;
  switch (bar) {
  case 0: return offset + 4 <= config_.vram_size ? vram_.read32(offset & ~3ull) : 0;
  case 2: {
    const auto slot = offset / 8;
    if (slot >= doorbell_slots_.size()) return 0;
    return static_cast<std::uint32_t>(doorbell_slots_[slot] >> (offset & 4 ? 32 : 0));
  }
  case 5: return registers_.read(offset / 4);
  default: return 0xFFFF'FFFFu;
  }
}

void FakeGpu::bar_write32(unsigned bar, std::uint64_t offset, std::uint32_t value) {
  if (!config_space_.memory_enabled()) return;
  switch (bar) {
  case 0:
    if (offset + 4 <= config_.vram_size) vram_.write32(offset & ~3ull, value);
    return;
  case 2: {
    const auto slot = offset / 8;
    if (slot >= doorbell_slots_.size()) return;
    auto &v = doorbell_slots_[slot];
    v = offset & 4 ? (v & 0xFFFF'FFFFull) | std::uint64_t{value} << 32
                   : (v & ~0xFFFF'FFFFull) | value;
    const DoorbellWrite w{offset, value};
    if (doorbells_.size() < (1u << 20)) doorbells_.push_back(w);
    for (const auto &h : doorbell_handlers_) h(w);
    return;
  }
  case 5: registers_.write(offset / 4, value); return;
  default: return;
  }
}

PcieFunctionIdentity FakeGpu::identity() const { return fake_gpu_identity(config_); }

const hw::am::RegisterNamer &FakeGpu::namer() const {
  if (!namer_) namer_ = std::make_unique<hw::am::RegisterNamer>(register_map_);
  return *namer_;
}

std::string FakeGpu::trace_text() const {
  return hw::am::format_register_trace(registers_.trace(), &namer());
}

void FakeGpu::clear_run_records() {
  (void)registers_.take_trace();
  doorbells_.clear();
  notes_.clear();
}

nlohmann::json FakeGpu::save() const {
  nlohmann::json blocks = nlohmann::json::object();
  for (const auto &b : blocks_)
    if (auto s = b->save(); !s.is_null()) blocks[b->name()] = std::move(s);
  nlohmann::json slots = nlohmann::json::object();
  for (std::size_t i = 0; i < doorbell_slots_.size(); ++i)
    if (doorbell_slots_[i]) slots[std::to_string(i)] = doorbell_slots_[i];
  return {{"format", kStateFormat},
          {"config", to_json(config_)},
          {"command", config_space_.read(0x04, 2)},
          {"registers", registers_.save()},
          {"doorbells", slots},
          {"blocks", blocks}};
}

std::unique_ptr<FakeGpu> FakeGpu::load(const nlohmann::json &j, Clock &clock) {
  if (j.value("format", 0) != kStateFormat)
    throw Error(ErrorKind::BadInput,
                fmt::format("fake GPU state has format {}, this wavectl reads format {}",
                            j.value("format", 0), kStateFormat));
  auto config = fake_gpu_config_from_json(j.at("config"));
  std::unique_ptr<FakeGpu> gpu(new FakeGpu(RestoreTag{}, std::move(config), clock));
  gpu->registers_.load(j.value("registers", nlohmann::json::object()));
  if (auto s = j.find("doorbells"); s != j.end())
    for (const auto &[k, v] : s->items()) {
      const auto slot = std::stoull(k);
      if (slot < gpu->doorbell_slots_.size()) gpu->doorbell_slots_[slot] = v.get<std::uint64_t>();
    }
  const auto blocks = j.value("blocks", nlohmann::json::object());
  for (auto &b : gpu->blocks_)
    if (auto it = blocks.find(b->name()); it != blocks.end()) b->load(*it);
  // COMMAND survives between processes (nobody resets the function when a tool exits).
  gpu->config_space_.write(0x04, j.value("command", 0u) & 0xFFFF, 2);
  return gpu;
}

}  // namespace wavescope::hw::sim::am
