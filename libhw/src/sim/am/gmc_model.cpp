// The fake GPU's GMC (am-driver.md §7, §19.2 item 6): FB location (the core's reset values),
// the XGMI LFB registers where the chip has them (settings gmc.xgmi_node, gmc.xgmi_max_region,
// gmc.xgmi_segment_mib; default: not in a hive), and per hub instance (every MMHUB, every XCC's GC
// hub) the invalidate engines 0..17: the semaphore is acquired by the read that finds it free
// (reads 1, then 0 until a write of 0 releases it), the ack bits are set only by a request and
// read back until the next one, and every request is a TLB invalidation event for the HDP model.
// VMID 0's page tables are walked from the context-0 registers at every access (no TLB to
// drop); addresses inside the system aperture (MC_VM_SYSTEM_APERTURE_LOW/HIGH) are VRAM MC
// addresses, untranslated. Translation faults latch GCVM_L2_PROTECTION_FAULT_STATUS (_LO32 on
// GC 12) and ADDR until CLEAR_PROTECTION_FAULT_STATUS_ADDR and queue a UTCL2 fault on the IH;
// while one is latched, later faults only set MORE_FAULTS. With CONTEXT0_CNTL's
// *_PROTECTION_FAULT_ENABLE_DEFAULT bits (AM sets them all) the faulting access goes to the
// default page (VM_L2_PROTECTION_FAULT_DEFAULT_ADDR, AM's dummy page) and the engine carries on.
//
// Faults: gmc:fault[,va=V][,write=1][,client=C] (a fault now, as an engine would report it);
// gmc:invalidate-hang[,hub=gc|mm] (requests are never acked); gmc:semaphore-busy (the MM
// semaphore is never free).

#include "sim/am/gmc_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/hdp_model.hpp"
#include "sim/am/ih_model.hpp"
#include "sim/am/ih_writer.hpp"
#include "sim/am/model_registers.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr std::uint32_t kMoreFaults = 1u << 0;
constexpr unsigned kCidShift = 9;

const BlockModelRegistration kGmc("gmc", 30, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (!gpu.has_register("gc.GCVM_CONTEXT0_CNTL") || !gpu.has_register("mmhub.MMVM_CONTEXT0_CNTL"))
    return nullptr;
  return std::make_unique<GmcModel>(gpu);
});

const regs::Field *field_of(const FakeGpu &gpu, const std::string &reg, const char *field) {
  return regs::resolve_register(gpu.register_map(), reg).reg->field(field);
}
}  // namespace

GmcModel::GmcModel(FakeGpu &gpu) : gpu_(gpu) {
  const auto gc = gpu_.ip_version("GC");
  gc12_ = gc.major >= 12;
  generation_ = hw::am::pt_generation_for_gc(gc.major);
  fb_base_ = gpu_.key("mmhub.MMMC_VM_FB_LOCATION_BASE");
  fb_top_ = gpu_.key("mmhub.MMMC_VM_FB_LOCATION_TOP");
  if (gpu_.has_register("mmhub.MMMC_VM_XGMI_LFB_CNTL")) {
    lfb_cntl_ = gpu_.key("mmhub.MMMC_VM_XGMI_LFB_CNTL");
    lfb_size_ = gpu_.key("mmhub.MMMC_VM_XGMI_LFB_SIZE");
    gpu_.registers().own(lfb_cntl_, "gmc");
    gpu_.registers().own(lfb_size_, "gmc");
  }
  const auto *mmhub = gpu_.register_map().block("mmhub");
  const auto *gcb = gpu_.register_map().block("gc");
  for (unsigned i = 0; i < mmhub->bases.size(); ++i) install_hub(false, i);
  for (unsigned x = 0; x < gcb->bases.size(); ++x) {
    install_hub(true, x);
    Hub h;
    auto k = [&](const char *r) { return gpu_.key(fmt::format("gc.GCVM_CONTEXT0_{}", r), x); };
    h.cntl = k("CNTL");
    h.base_lo = k("PAGE_TABLE_BASE_ADDR_LO32");
    h.base_hi = k("PAGE_TABLE_BASE_ADDR_HI32");
    h.start_lo = k("PAGE_TABLE_START_ADDR_LO32");
    h.start_hi = k("PAGE_TABLE_START_ADDR_HI32");
    h.end_lo = k("PAGE_TABLE_END_ADDR_LO32");
    h.end_hi = k("PAGE_TABLE_END_ADDR_HI32");
    h.aperture_low = gpu_.key("gc.GCMC_VM_SYSTEM_APERTURE_LOW_ADDR", x);
    h.aperture_high = gpu_.key("gc.GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR", x);
    h.default_lo = gpu_.key("gc.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32", x);
    h.default_hi = gpu_.key("gc.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32", x);
    for (RegisterKey key :
         {h.cntl, h.base_lo, h.base_hi, h.start_lo, h.start_hi, h.end_lo, h.end_hi})
      gpu_.registers().own(key, "gmc");
    gc_hubs_.push_back(h);
  }
  for (const auto &f :
       regs::resolve_register(gpu_.register_map(), "gc.GCVM_CONTEXT0_CNTL").reg->fields)
    if (std::string_view(f.name).ends_with("_PROTECTION_FAULT_ENABLE_DEFAULT"))
      default_page_bits_ |= static_cast<std::uint32_t>(f.mask());
  const std::string status =
      gc12_ ? "gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32" : "gc.GCVM_L2_PROTECTION_FAULT_STATUS";
  fault_status_ = gpu_.key(status);
  fault_lo_ = gpu_.key("gc.GCVM_L2_PROTECTION_FAULT_ADDR_LO32");
  fault_hi_ = gpu_.key("gc.GCVM_L2_PROTECTION_FAULT_ADDR_HI32");
  fault_cntl_ = gpu_.key("gc.GCVM_L2_PROTECTION_FAULT_CNTL");
  clear_bit_ = static_cast<std::uint32_t>(
      field_of(gpu_, "gc.GCVM_L2_PROTECTION_FAULT_CNTL", "CLEAR_PROTECTION_FAULT_STATUS_ADDR")
          ->mask());
  auto &regs = gpu_.registers();
  regs.own(fault_status_, "gmc");
  regs.own(fault_lo_, "gmc");
  regs.own(fault_hi_, "gmc");
  regs.on_write(
      fault_cntl_,
      [this](RegisterKey, std::uint32_t v, std::uint32_t) {
        if ((v & clear_bit_) == 0) return;
        auto &r = gpu_.registers();
        r.poke(fault_status_, 0);
        r.poke(fault_lo_, 0);
        r.poke(fault_hi_, 0);
        latched_ = false;
        gpu_.note("gmc: protection fault status cleared");
      },
      "gmc");
  // What init_hub programs and nothing else here interprets: plain storage.
  for (const char *hub : {"mmhub.MM", "gc.GC"}) {
    for (const char *reg : {"MC_VM_AGP_BASE",
                            "MC_VM_AGP_BOT",
                            "MC_VM_AGP_TOP",
                            "MC_VM_SYSTEM_APERTURE_LOW_ADDR",
                            "MC_VM_SYSTEM_APERTURE_HIGH_ADDR",
                            "MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB",
                            "MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB",
                            "VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32",
                            "VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32",
                            "VM_L2_PROTECTION_FAULT_CNTL2",
                            "MC_VM_MX_L1_TLB_CNTL",
                            "VM_L2_CNTL",
                            "VM_L2_CNTL2",
                            "VM_L2_CNTL3",
                            "VM_L2_CNTL4",
                            "VM_L2_CNTL5",
                            "VM_CONTEXT0_CNTL",
                            "VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32",
                            "VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32",
                            "VM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32",
                            "VM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32",
                            "VM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32",
                            "VM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32",
                            "VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_LO32",
                            "VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_HI32",
                            "VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_LO32",
                            "VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_HI32",
                            "VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_LO32",
                            "VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_HI32",
                            "VM_L2_BANK_SELECT_RESERVED_CID2"})
      own_on_every_instance(gpu_, fmt::format("{}{}", hub, reg), "gmc");
    for (unsigned eng = 0; eng < 18; ++eng)
      for (const char *half : {"LO32", "HI32"})
        own_on_every_instance(
            gpu_, fmt::format("{}VM_INVALIDATE_ENG{}_ADDR_RANGE_{}", hub, eng, half), "gmc");
  }
  gpu_.set_mc_translation([this](std::uint64_t mc) { return mc - fb_base() - paddr_base(); });
}

void GmcModel::install_hub(bool gc, unsigned instance) {
  auto &regs = gpu_.registers();
  for (unsigned eng = 0; eng < 18; ++eng) {
    const std::string pre = gc ? fmt::format("gc.GCVM_INVALIDATE_ENG{}_", eng)
                               : fmt::format("mmhub.MMVM_INVALIDATE_ENG{}_", eng);
    if (!gpu_.has_register(pre + "REQ")) continue;
    const RegisterKey req = gpu_.key(pre + "REQ", instance), ack = gpu_.key(pre + "ACK", instance);
    // Instances whose bases coincide (the mi300x profile's XCC pairs) share one engine.
    if (engine_by_key_.count(req)) continue;
    engines_.push_back({gc, instance, eng, false, 0});
    const std::size_t index = engines_.size() - 1;
    engine_by_key_[req] = index;
    regs.on_write(
        req,
        [this, index](RegisterKey, std::uint32_t v, std::uint32_t) { request(engines_[index], v); },
        "gmc");
    regs.on_read(
        ack, [this, index](RegisterKey, std::uint32_t) { return engines_[index].ack; }, "gmc");
    if (gpu_.has_register(pre + "SEM")) {
      const RegisterKey sem = gpu_.key(pre + "SEM", instance);
      regs.on_read(
          sem, [this, index](RegisterKey, std::uint32_t) { return sem_read(engines_[index]); },
          "gmc");
      regs.on_write(
          sem,
          [this, index](RegisterKey, std::uint32_t v, std::uint32_t) {
            if ((v & 1) == 0) engines_[index].sem_taken = false;
          },
          "gmc");
    }
  }
}

const FaultRequest *GmcModel::fault(const std::string &kind) const {
  for (const auto &f : faults_)
    if (f.kind == kind) return &f;
  return nullptr;
}

std::uint32_t GmcModel::sem_read(Engine &e) {
  if (!e.gc && fault("semaphore-busy")) return 0;
  if (e.sem_taken) return 0;
  e.sem_taken = true;
  return 1;
}

void GmcModel::request(Engine &e, std::uint32_t value) {
  ++(e.gc ? gc_invalidations_ : mm_invalidations_);
  if (auto *hdp = dynamic_cast<HdpModel *>(gpu_.block("hdp")))
    hdp->event(HdpModel::Event::Invalidate);
  const FaultRequest *hang = fault("invalidate-hang");
  if (hang && (!hang->has("hub") || hang->params.at("hub") == (e.gc ? "gc" : "mm"))) {
    e.ack = 0;
    return;
  }
  e.ack = value & 0xFFFF;  // PER_VMID_INVALIDATE_REQ
}

std::uint64_t GmcModel::pair(RegisterKey lo, RegisterKey hi) const {
  return std::uint64_t{gpu_.registers().peek(lo)} | std::uint64_t{gpu_.registers().peek(hi)} << 32;
}

std::uint64_t GmcModel::fb_base() const {
  return std::uint64_t{gpu_.registers().peek(fb_base_) & 0xFF'FFFF} << 24;
}

std::uint64_t GmcModel::paddr_base() const {
  if (!lfb_cntl_) return 0;
  const auto &regs = gpu_.registers();
  const auto *region = field_of(gpu_, "mmhub.MMMC_VM_XGMI_LFB_CNTL", "PF_LFB_REGION");
  const auto *size = field_of(gpu_, "mmhub.MMMC_VM_XGMI_LFB_SIZE", "PF_LFB_SIZE");
  return regs::decode_field(*region, regs.peek(lfb_cntl_)) *
         (regs::decode_field(*size, regs.peek(lfb_size_)) << 24);
}

MmuConfig GmcModel::mmu_config(unsigned xcc) const {
  MmuConfig c;
  c.generation = generation_;
  if (xcc >= gc_hubs_.size()) return c;
  const Hub &h = gc_hubs_[xcc];
  c.enabled = (gpu_.registers().peek(h.cntl) & 1) != 0;  // ENABLE_CONTEXT
  c.page_table_base = pair(h.base_lo, h.base_hi);
  c.start_page = pair(h.start_lo, h.start_hi);
  c.end_page = pair(h.end_lo, h.end_hi);
  c.paddr_base = paddr_base();
  c.fb_base = fb_base();
  c.fb_end = std::uint64_t{gpu_.registers().peek(fb_top_) & 0xFF'FFFF} << 24;
  c.vram_size = gpu_.config().vram_size;
  const auto &regs = gpu_.registers();
  c.aperture_low = std::uint64_t{regs.peek(h.aperture_low)} << 18;
  c.aperture_high = std::uint64_t{regs.peek(h.aperture_high)} << 18;
  if (regs.peek(h.cntl) & default_page_bits_) {
    const std::uint64_t xgmi = pair(h.default_lo, h.default_hi) << 12;
    if (xgmi >= c.paddr_base && xgmi - c.paddr_base < c.vram_size)
      c.default_page = xgmi - c.paddr_base;
  }
  return c;
}

void GmcModel::report_fault(const MmuFault &f, unsigned client) {
  auto &regs = gpu_.registers();
  ++faults_reported_;
  if (latched_) {
    regs.poke(fault_status_, regs.peek(fault_status_) | kMoreFaults);
    return;
  }
  regs.poke(fault_status_, f.status | (client & 0x1FF) << kCidShift);
  regs.poke(fault_lo_, static_cast<std::uint32_t>(f.va >> 12));
  regs.poke(fault_hi_, static_cast<std::uint32_t>(f.va >> 44));
  latched_ = true;
  gpu_.note(fmt::format("gmc: page fault at VA {:#x} ({}, {})", f.va, f.write ? "write" : "read",
                        f.reason));
  if (auto *ih = dynamic_cast<IhModel *>(gpu_.block("ih")))
    ih->push(ih_utcl2_fault_entry(ih->soc()));
}

void GmcModel::reset(ResetKind) {
  for (auto &e : engines_) e.sem_taken = false, e.ack = 0;
  latched_ = false;
  gc_invalidations_ = mm_invalidations_ = faults_reported_ = 0;
  auto &regs = gpu_.registers();
  if (lfb_cntl_) {
    const auto &cfg = gpu_.config();
    const auto *cntl =
        regs::resolve_register(gpu_.register_map(), "mmhub.MMMC_VM_XGMI_LFB_CNTL").reg;
    const auto *size =
        regs::resolve_register(gpu_.register_map(), "mmhub.MMMC_VM_XGMI_LFB_SIZE").reg;
    const std::pair<std::string_view, std::uint64_t> c[] = {
        {"PF_LFB_REGION", cfg.number("gmc.xgmi_node", 0)},
        {"PF_MAX_REGION", cfg.number("gmc.xgmi_max_region", 0)}};
    const std::pair<std::string_view, std::uint64_t> s[] = {
        {"PF_LFB_SIZE", cfg.number("gmc.xgmi_segment_mib", 0) >> 4}};
    for (unsigned i = 0; i < gpu_.register_map().block("mmhub")->bases.size(); ++i) {
      regs.poke(gpu_.key("mmhub.MMMC_VM_XGMI_LFB_CNTL", i),
                static_cast<std::uint32_t>(regs::update_register_value(*cntl, 0, c)));
      regs.poke(gpu_.key("mmhub.MMMC_VM_XGMI_LFB_SIZE", i),
                static_cast<std::uint32_t>(regs::update_register_value(*size, 0, s)));
    }
  }
}

bool GmcModel::arm_fault(const FaultRequest &f) {
  if (f.kind == "fault") {
    MmuFault m;
    m.va = f.number("va", 0x2000'0000'0000);
    m.write = f.number("write", 0) != 0;
    m.reason = "injected";
    m.status = (1u << 8) | (m.write ? 1u << 18 : 0u);  // MAPPING_ERROR, RW
    report_fault(m, static_cast<unsigned>(f.number("client", 0)));
    return true;
  }
  if (f.kind == "invalidate-hang" || f.kind == "semaphore-busy") {
    faults_.push_back(f);
    return true;
  }
  return false;
}

void GmcModel::clear_faults() { faults_.clear(); }

std::vector<std::string> GmcModel::fault_kinds() const {
  return {"fault[,va=V][,write=1][,client=C]", "invalidate-hang[,hub=gc|mm]", "semaphore-busy"};
}

nlohmann::json GmcModel::save() const {
  nlohmann::json engines = nlohmann::json::array();
  for (const auto &e : engines_) engines.push_back({e.sem_taken, e.ack});
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"engines", engines},
          {"latched", latched_},
          {"gc_invalidations", gc_invalidations_},
          {"mm_invalidations", mm_invalidations_},
          {"faults_reported", faults_reported_},
          {"faults", faults}};
}

void GmcModel::load(const nlohmann::json &j) {
  if (!j.is_object()) return;
  if (auto it = j.find("engines"); it != j.end() && it->size() == engines_.size())
    for (std::size_t i = 0; i < engines_.size(); ++i) {
      engines_[i].sem_taken = (*it)[i][0].get<bool>();
      engines_[i].ack = (*it)[i][1].get<std::uint32_t>();
    }
  latched_ = j.value("latched", false);
  gc_invalidations_ = j.value("gc_invalidations", std::uint64_t{0});
  mm_invalidations_ = j.value("mm_invalidations", std::uint64_t{0});
  faults_reported_ = j.value("faults_reported", std::uint64_t{0});
  faults_.clear();
  for (const auto &t : j.value("faults", nlohmann::json::array()))
    faults_.push_back(parse_fault_request(t.get<std::string>()));
}

nlohmann::json GmcModel::status() const {
  nlohmann::json hubs = nlohmann::json::array();
  for (unsigned x = 0; x < gc_hubs_.size(); ++x) {
    const auto c = mmu_config(x);
    hubs.push_back({{"xcc", x},
                    {"context0", c.enabled},
                    {"page_table_base", fmt::format("0x{:X}", c.page_table_base)}});
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  const auto &regs = gpu_.registers();
  return {{"gc_hubs", hubs},
          {"paddr_base", fmt::format("0x{:X}", paddr_base())},
          {"gc_invalidations", gc_invalidations_},
          {"mm_invalidations", mm_invalidations_},
          {"fault_latched", latched_},
          {"fault_status", fmt::format("0x{:X}", regs.peek(fault_status_))},
          {"fault_va", fmt::format("0x{:X}", pair(fault_lo_, fault_hi_) << 12)},
          {"faults_reported", faults_reported_},
          {"faults", faults}};
}

}  // namespace wavescope::hw::sim::am
