// The fake GPU's CP/MEC (am-driver.md §12.3-§12.5, §19.2 item 8): GRBM_GFX_CNTL selects which
// bank the HQD registers (the 56 dwords CP_MQD_BASE_ADDR .. CP_HQD_PQ_WPTR_HI) and SH_MEM_CONFIG /
// SH_MEM_BASES (per VMID) address, per XCC. Writing CP_HQD_ACTIVE = 1 starts a queue from its
// HQD registers (PQ_BASE, QUEUE_SIZE, RPTR_REPORT_ADDR, doorbell offset and enable, AQL);
// CP_HQD_DEQUEUE_REQUEST ends it; CP_HQD_PQ_RPTR and _WPTR read the running queue's pointers.
// The MEC runs when its control register says so (CP_MEC_RS64_CNTL: pipe 0 active, not reset,
// not halted — halted at reset; CP_MEC_CNTL on GC 9: ME1 not halted). GRBM_SOFT_RESET's CP/CPC
// bits drop every HQD. CP_STAT reads 0 and RLC_SAFE_MODE takes its command at once; the ucode
// start, pipe reset, RLC, TCP and clock-gating registers are plain storage.
//
// A doorbell (low dword) whose slot is an active queue's sets its write pointer (dwords) and runs
// the PM4 interpreter on every active PM4 queue until none progresses, through VMID 0 of its
// XCC's GC hub. RELEASE_MEM interrupts become CP_EOP_INTERRUPT entries on the IH, bad opcodes
// CP_BAD_OPCODE_ERROR ones (the queue stops there); page faults go to the GMC (latched, UTCL2
// entry) and the access to the default page, or stop the queue when there is none.
// AQL queues are accepted but not executed.
//
// Faults: cp:dequeue-hang (HQDs never go idle); cp:queue-hang (doorbells are ignored).

#include "sim/am/cp_model.hpp"

#include <set>

#include "wavescope/base/error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/gmc_model.hpp"
#include "sim/am/hdp_model.hpp"
#include "sim/am/ih_model.hpp"
#include "sim/am/model_registers.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr unsigned kClientGrbmCp = 20, kSrcCpEop = 181;
constexpr unsigned kCidCpc = 0x2;  // CID the GMC latches for CP faults (a stand-in)

const BlockModelRegistration kCp("cp", 50, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (!gpu.has_register("gc.CP_MQD_BASE_ADDR") || !gpu.has_register("gc.GRBM_GFX_CNTL"))
    return nullptr;
  return std::make_unique<CpModel>(gpu);
});

std::uint32_t field_mask(const FakeGpu &gpu, const char *reg, const char *field) {
  const auto *r = regs::resolve_register(gpu.register_map(), reg).reg;
  const auto *f = r ? r->field(field) : nullptr;
  return f ? static_cast<std::uint32_t>(f->mask()) : 0;
}

unsigned field_value(const FakeGpu &gpu, const char *reg, const char *field, std::uint32_t v) {
  const auto *f = regs::resolve_register(gpu.register_map(), reg).reg->field(field);
  return f ? static_cast<unsigned>(regs::decode_field(*f, v)) : 0;
}

// Registers GFX init and clock gating program that are plain storage here.
constexpr const char *kPlain[] = {
    "gc.CP_STAT",
    "gc.SPI_COMPUTE_QUEUE_RESET",
    "gc.CP_ME_CNTL",
    "gc.CP_MEC_RS64_PRGRM_CNTR_START",
    "gc.CP_MEC_RS64_PRGRM_CNTR_START_HI",
    "gc.CP_PFP_PRGRM_CNTR_START",
    "gc.CP_PFP_PRGRM_CNTR_START_HI",
    "gc.CP_ME_PRGRM_CNTR_START",
    "gc.CP_ME_PRGRM_CNTR_START_HI",
    "gc.TCP_CNTL",
    "gc.RLC_CNTL",
    "gc.RLC_SRM_CNTL",
    "gc.RLC_SPM_MC_CNTL",
    "gc.GRBM_CNTL",
    "gc.GB_ADDR_CONFIG",
    "gc.TCP_UTCL1_CNTL2",
    "gc.CP_MEC_DOORBELL_RANGE_LOWER",
    "gc.CP_MEC_DOORBELL_RANGE_UPPER",
    "gc.RLC_CGCG_CGLS_CTRL",
    "gc.CP_RB_WPTR_POLL_CNTL",
    "gc.CP_INT_CNTL",
    "gc.RLC_CGTT_MGCG_OVERRIDE",
    "gc.SDMA0_RLC_CGCG_CTRL",
    "gc.SDMA1_RLC_CGCG_CTRL",
    "mmhub.MM_ATC_L2_MISC_CG",
    "nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_0_CTRL",
    "nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_3_CTRL",
    "nbio.S2A_DOORBELL_ENTRY_0_CTRL",
    "nbio.S2A_DOORBELL_ENTRY_3_CTRL",
};

class Environment final : public CpEnvironment {
public:
  explicit Environment(FakeGpu &gpu) : gpu_(gpu) {}
  std::uint32_t read_register(std::uint32_t address) override {
    return gpu_.registers().peek(address);
  }
  void write_register(std::uint32_t address, std::uint32_t value) override {
    auto *hdp = dynamic_cast<HdpModel *>(gpu_.block("hdp"));
    if (hdp && hdp->cp_write(address, value)) return;
    gpu_.registers().poke(address, value);
  }
  std::uint64_t gpu_clock() override {
    return static_cast<std::uint64_t>(gpu_.clock().now().time_since_epoch().count()) / 10;
  }
  void cp_interrupt(unsigned source, std::uint32_t context) override {
    auto *ih = dynamic_cast<IhModel *>(gpu_.block("ih"));
    if (!ih) return;
    ih->push(source == kSrcCpEop ? ih_eop_entry(ih->soc(), context)
                                 : ih_entry_dwords(kClientGrbmCp, source, context));
  }

private:
  FakeGpu &gpu_;
};
}  // namespace

CpModel::CpModel(FakeGpu &gpu) : gpu_(gpu) {
  gc_major_ = gpu_.ip_version("GC").major;
  auto &regs = gpu_.registers();
  const RegisterKey first0 = gpu_.key("gc.CP_MQD_BASE_ADDR");
  auto index = [&](const char *name) { return static_cast<unsigned>(gpu_.key(name) - first0); };
  i_active_ = index("gc.CP_HQD_ACTIVE");
  i_dequeue_ = index("gc.CP_HQD_DEQUEUE_REQUEST");
  i_pq_base_ = index("gc.CP_HQD_PQ_BASE");
  i_pq_base_hi_ = index("gc.CP_HQD_PQ_BASE_HI");
  i_rptr_ = index("gc.CP_HQD_PQ_RPTR");
  i_rptr_report_ = index("gc.CP_HQD_PQ_RPTR_REPORT_ADDR");
  i_rptr_report_hi_ = index("gc.CP_HQD_PQ_RPTR_REPORT_ADDR_HI");
  i_doorbell_ = index("gc.CP_HQD_PQ_DOORBELL_CONTROL");
  i_pq_control_ = index("gc.CP_HQD_PQ_CONTROL");
  i_aql_ = index("gc.CP_HQD_AQL_CONTROL");
  i_wptr_lo_ = index("gc.CP_HQD_PQ_WPTR_LO");
  i_wptr_hi_ = index("gc.CP_HQD_PQ_WPTR_HI");
  soft_reset_cp_ = field_mask(gpu_, "gc.GRBM_SOFT_RESET", "SOFT_RESET_CP") |
                   field_mask(gpu_, "gc.GRBM_SOFT_RESET", "SOFT_RESET_CPC");

  // Hooks go on each register key once: where two XCCs share a key (the mi300x profile gives an
  // AID's two XCCs the same segment-0 bases) the first XCC's hook serves both.
  std::set<RegisterKey> hooked;
  auto once = [&](RegisterKey k) { return hooked.insert(k).second; };
  const unsigned instances = static_cast<unsigned>(gpu_.register_map().block("gc")->bases.size());
  for (unsigned x = 0; x < instances; ++x) {
    Xcc xcc;
    xcc.grbm = gpu_.key("gc.GRBM_GFX_CNTL", x);
    xcc.first = gpu_.key("gc.CP_MQD_BASE_ADDR", x);
    xcc.mec_cntl = gpu_.key(gc_major_ >= 10 ? "gc.CP_MEC_RS64_CNTL" : "gc.CP_MEC_CNTL", x);
    xccs_[x] = xcc;
    if (once(xcc.grbm)) regs.own(xcc.grbm, "cp");
    if (once(xcc.mec_cntl)) regs.own(xcc.mec_cntl, "cp");
    if (once(xcc.first)) {
      for (unsigned i = 0; i < kHqdRegisters; ++i) {
        regs.on_read(
            xcc.first + i, [this, x, i](RegisterKey, std::uint32_t) { return hqd_read(x, i); },
            "cp");
        regs.on_write(
            xcc.first + i,
            [this, x, i](RegisterKey, std::uint32_t v, std::uint32_t) { hqd_write(x, i, v); },
            "cp");
      }
    }
    for (unsigned which = 0; which < 2; ++which) {
      const RegisterKey k = gpu_.key(which == 0 ? "gc.SH_MEM_CONFIG" : "gc.SH_MEM_BASES", x);
      if (!once(k)) continue;
      regs.on_read(
          k,
          [this, x, which](RegisterKey, std::uint32_t) {
            return xccs_.at(x).sh_mem[selected(x).vmid][which];
          },
          "cp");
      regs.on_write(
          k,
          [this, x, which](RegisterKey, std::uint32_t v, std::uint32_t) {
            xccs_.at(x).sh_mem[selected(x).vmid][which] = v;
          },
          "cp");
    }
    if (gpu_.has_register("gc.RLC_SAFE_MODE")) {
      const RegisterKey safe = gpu_.key("gc.RLC_SAFE_MODE", x);
      const std::uint32_t cmd = field_mask(gpu_, "gc.RLC_SAFE_MODE", "CMD");
      if (once(safe))
        regs.on_write(
            safe,
            [this, safe, cmd](RegisterKey, std::uint32_t v, std::uint32_t) {
              gpu_.registers().poke(safe, v & ~cmd);  // the RLC takes the message at once
            },
            "cp");
    }
    if (gpu_.has_register("gc.GRBM_SOFT_RESET") && once(gpu_.key("gc.GRBM_SOFT_RESET", x)))
      regs.on_write(
          gpu_.key("gc.GRBM_SOFT_RESET", x),
          [this](RegisterKey, std::uint32_t v, std::uint32_t) { soft_reset(v); }, "cp");
  }
  for (const char *name : kPlain) own_on_every_instance(gpu_, name, "cp");
  gpu_.on_doorbell([this](const DoorbellWrite &w) { doorbell(w.offset, w.value); });
}

CpModel::Select CpModel::selected(unsigned x) const {
  const std::uint32_t v = gpu_.registers().peek(xccs_.at(x).grbm);
  return {field_value(gpu_, "gc.GRBM_GFX_CNTL", "MEID", v),
          field_value(gpu_, "gc.GRBM_GFX_CNTL", "PIPEID", v),
          field_value(gpu_, "gc.GRBM_GFX_CNTL", "QUEUEID", v),
          field_value(gpu_, "gc.GRBM_GFX_CNTL", "VMID", v)};
}

CpModel::Hqd &CpModel::hqd(unsigned x) {
  const Select s = selected(x);
  return hqds_[{x, s.me, s.pipe, s.queue}];
}

std::uint32_t CpModel::hqd_read(unsigned x, unsigned i) {
  Hqd &h = hqd(x);
  if (h.active && i == i_rptr_)
    return static_cast<std::uint32_t>(h.queue.rptr % h.queue.ring_dwords);
  if (h.active && i == i_wptr_lo_) return static_cast<std::uint32_t>(h.queue.wptr);
  if (h.active && i == i_wptr_hi_) return static_cast<std::uint32_t>(h.queue.wptr >> 32);
  if (i == i_active_) return h.active ? 1u : 0u;
  return h.regs[i];
}

void CpModel::hqd_write(unsigned x, unsigned i, std::uint32_t v) {
  const Select s = selected(x);
  const HqdId id{x, s.me, s.pipe, s.queue};
  Hqd &h = hqds_[id];
  h.regs[i] = v;
  if (i == i_active_) {
    if ((v & 1) && !h.active) activate(x, id, h);
    if ((v & 1) == 0) h.active = false;
  } else if (i == i_dequeue_ && v != 0 && h.active) {
    if (has_fault("dequeue-hang")) {
      gpu_.note(fmt::format("cp: xcc {} me {} pipe {} queue {}: dequeue request ignored (fault)", x,
                            s.me, s.pipe, s.queue));
      return;
    }
    h.active = false;
    h.regs[i_active_] = 0;
    h.state = "dequeued";
    gpu_.note(fmt::format("cp: xcc {} me {} pipe {} queue {} dequeued", x, s.me, s.pipe, s.queue));
  }
}

void CpModel::activate(unsigned x, const HqdId &id, Hqd &h) {
  const auto &r = h.regs;
  Pm4Queue q;
  q.ring_va = (std::uint64_t{r[i_pq_base_]} | std::uint64_t{r[i_pq_base_hi_]} << 32) << 8;
  const unsigned queue_size =
      field_value(gpu_, "gc.CP_HQD_PQ_CONTROL", "QUEUE_SIZE", r[i_pq_control_]);
  q.ring_dwords = 1u << (queue_size + 1);
  q.rptr = r[i_rptr_];
  q.wptr = std::uint64_t{r[i_wptr_lo_]} | std::uint64_t{r[i_wptr_hi_]} << 32;
  q.rptr_report_va = std::uint64_t{r[i_rptr_report_]} | std::uint64_t{r[i_rptr_report_hi_]} << 32;
  q.xcc = x;
  h.queue = q;
  h.aql = (r[i_aql_] & 1) != 0;
  h.doorbell_enabled =
      field_value(gpu_, "gc.CP_HQD_PQ_DOORBELL_CONTROL", "DOORBELL_EN", r[i_doorbell_]) != 0;
  h.doorbell =
      field_value(gpu_, "gc.CP_HQD_PQ_DOORBELL_CONTROL", "DOORBELL_OFFSET", r[i_doorbell_]) / 2;
  h.active = true;
  h.state = h.aql ? "aql (not executed)" : "idle";
  gpu_.note(fmt::format("cp: xcc {} me {} pipe {} queue {} active: ring {:#x} ({:#x} dwords), "
                        "doorbell {}{}",
                        x, std::get<1>(id), std::get<2>(id), std::get<3>(id), q.ring_va,
                        q.ring_dwords, h.doorbell, h.aql ? ", AQL" : ""));
}

bool CpModel::mec_running(unsigned x) const {
  const auto it = xccs_.find(x);
  if (it == xccs_.end()) return false;
  const std::uint32_t v = gpu_.registers().peek(it->second.mec_cntl);
  if (gc_major_ >= 10)
    return field_value(gpu_, "gc.CP_MEC_RS64_CNTL", "MEC_PIPE0_ACTIVE", v) &&
           !field_value(gpu_, "gc.CP_MEC_RS64_CNTL", "MEC_PIPE0_RESET", v) &&
           !field_value(gpu_, "gc.CP_MEC_RS64_CNTL", "MEC_HALT", v);
  return !field_value(gpu_, "gc.CP_MEC_CNTL", "MEC_ME1_HALT", v);
}

void CpModel::doorbell(std::uint64_t offset, std::uint32_t value) {
  if (offset % 8 != 0) return;
  const unsigned slot = static_cast<unsigned>(offset / 8);
  bool mine = false;
  for (auto &[id, h] : hqds_)
    if (h.active && h.doorbell_enabled && h.doorbell == slot) {
      h.queue.wptr = value;
      mine = true;
    }
  if (!mine) return;
  ++doorbells_seen_;
  if (has_fault("queue-hang")) return;
  run_queues();
}

void CpModel::run_queues() {
  auto *gmc = dynamic_cast<GmcModel *>(gpu_.block("gmc"));
  if (!gmc) return;
  GpuMemory memory(gpu_.vram(), nullptr);
  Environment env(gpu_);
  const auto gen = hw::am::pm4_generation_for_gc(gc_major_);
  for (int round = 0; round < 64; ++round) {
    bool progress = false;
    for (auto &[id, h] : hqds_) {
      const unsigned x = std::get<0>(id);
      if (!h.active || h.aql || h.state.rfind("fault", 0) == 0 || !mec_running(x)) continue;
      GpuAddressSpace space(memory, gmc->mmu_config(x),
                            [gmc](const MmuFault &f) { gmc->report_fault(f, kCidCpc); });
      const auto r = run_pm4(h.queue, space, env, gen);
      progress |= r.packets > 0;
      h.state = r.status == QueueRunStatus::Idle
                    ? "idle"
                    : fmt::format("{}: {}", queue_run_status_name(r.status), r.message);
      if (r.status == QueueRunStatus::Fault) {
        gpu_.note(fmt::format("cp: xcc {} queue {} stopped: {}", x, std::get<3>(id), r.message));
        if (r.page_fault) gmc->report_fault(*r.page_fault, kCidCpc);
      }
    }
    if (!progress) break;
  }
}

void CpModel::soft_reset(std::uint32_t v) {
  if ((v & soft_reset_cp_) == 0) return;
  hqds_.clear();
  gpu_.note("cp: GRBM soft reset of CP/CPC: every HQD dropped");
}

bool CpModel::has_fault(const std::string &kind) const {
  for (const auto &f : faults_)
    if (f.kind == kind) return true;
  return false;
}

void CpModel::reset(ResetKind) {
  hqds_.clear();
  doorbells_seen_ = 0;
  auto &regs = gpu_.registers();
  for (auto &[instance, x] : xccs_) {
    x.sh_mem.clear();
    // The MEC is halted until the driver starts it.
    const std::uint32_t halt = gc_major_ >= 10
                                   ? field_mask(gpu_, "gc.CP_MEC_RS64_CNTL", "MEC_HALT")
                                   : field_mask(gpu_, "gc.CP_MEC_CNTL", "MEC_ME1_HALT") |
                                         field_mask(gpu_, "gc.CP_MEC_CNTL", "MEC_ME2_HALT");
    regs.poke(x.mec_cntl, halt);
  }
}

bool CpModel::arm_fault(const FaultRequest &f) {
  if (f.kind != "dequeue-hang" && f.kind != "queue-hang") return false;
  faults_.push_back(f);
  return true;
}

void CpModel::clear_faults() { faults_.clear(); }

std::vector<std::string> CpModel::fault_kinds() const { return {"dequeue-hang", "queue-hang"}; }

nlohmann::json CpModel::save() const {
  nlohmann::json hqds = nlohmann::json::array();
  for (const auto &[id, h] : hqds_) {
    nlohmann::json ibs = nlohmann::json::array();
    for (const auto &ib : h.queue.ibs) ibs.push_back({ib.va, ib.size, ib.offset});
    hqds.push_back({{"id", {std::get<0>(id), std::get<1>(id), std::get<2>(id), std::get<3>(id)}},
                    {"regs", h.regs},
                    {"active", h.active},
                    {"aql", h.aql},
                    {"doorbell_enabled", h.doorbell_enabled},
                    {"doorbell", h.doorbell},
                    {"ring", h.queue.ring_va},
                    {"dwords", h.queue.ring_dwords},
                    {"rptr", h.queue.rptr},
                    {"wptr", h.queue.wptr},
                    {"report", h.queue.rptr_report_va},
                    {"ibs", ibs},
                    {"packets", h.queue.packets},
                    {"state", h.state}});
  }
  nlohmann::json sh = nlohmann::json::object();
  for (const auto &[instance, x] : xccs_) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto &[vmid, v] : x.sh_mem) m[std::to_string(vmid)] = v;
    sh[std::to_string(instance)] = m;
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"hqds", hqds}, {"sh_mem", sh}, {"doorbells", doorbells_seen_}, {"faults", faults}};
}

void CpModel::load(const nlohmann::json &j) {
  if (!j.is_object()) return;
  hqds_.clear();
  for (const auto &s : j.value("hqds", nlohmann::json::array())) {
    const auto id = s.at("id");
    Hqd &h = hqds_[{id[0].get<unsigned>(), id[1].get<unsigned>(), id[2].get<unsigned>(),
                    id[3].get<unsigned>()}];
    h.regs = s.at("regs").get<std::array<std::uint32_t, kHqdRegisters>>();
    h.active = s.value("active", false);
    h.aql = s.value("aql", false);
    h.doorbell_enabled = s.value("doorbell_enabled", false);
    h.doorbell = s.value("doorbell", 0u);
    h.queue.ring_va = s.value("ring", std::uint64_t{0});
    h.queue.ring_dwords = s.value("dwords", std::uint32_t{0});
    h.queue.rptr = s.value("rptr", std::uint64_t{0});
    h.queue.wptr = s.value("wptr", std::uint64_t{0});
    h.queue.rptr_report_va = s.value("report", std::uint64_t{0});
    h.queue.xcc = id[0].get<unsigned>();
    for (const auto &ib : s.value("ibs", nlohmann::json::array()))
      h.queue.ibs.push_back(
          {ib[0].get<std::uint64_t>(), ib[1].get<std::uint32_t>(), ib[2].get<std::uint32_t>()});
    h.queue.packets = s.value("packets", std::uint64_t{0});
    h.state = s.value("state", std::string());
  }
  if (const auto sh = j.find("sh_mem"); sh != j.end() && sh->is_object()) {
    for (auto e = sh->begin(); e != sh->end(); ++e) {
      const auto it = xccs_.find(static_cast<unsigned>(std::stoul(e.key())));
      if (it == xccs_.end()) continue;
      for (auto v = e.value().begin(); v != e.value().end(); ++v)
        it->second.sh_mem[static_cast<unsigned>(std::stoul(v.key()))] =
            v.value().get<std::array<std::uint32_t, 2>>();
    }
  }
  doorbells_seen_ = j.value("doorbells", std::uint64_t{0});
  faults_.clear();
  for (const auto &t : j.value("faults", nlohmann::json::array()))
    faults_.push_back(parse_fault_request(t.get<std::string>()));
}

nlohmann::json CpModel::status() const {
  nlohmann::json queues = nlohmann::json::array();
  for (const auto &[id, h] : hqds_) {
    if (!h.active && h.state.empty()) continue;
    queues.push_back({{"xcc", std::get<0>(id)},
                      {"me", std::get<1>(id)},
                      {"pipe", std::get<2>(id)},
                      {"queue", std::get<3>(id)},
                      {"active", h.active},
                      {"ring", fmt::format("0x{:X}", h.queue.ring_va)},
                      {"dwords", h.queue.ring_dwords},
                      {"rptr", h.queue.rptr},
                      {"wptr", h.queue.wptr},
                      {"doorbell", h.doorbell},
                      {"packets", h.queue.packets},
                      {"state", h.state}});
  }
  nlohmann::json mec = nlohmann::json::array();
  for (const auto &[x, xcc] : xccs_) mec.push_back(mec_running(x));
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {
      {"mec_running", mec}, {"queues", queues}, {"doorbells", doorbells_seen_}, {"faults", faults}};
}

}  // namespace wavescope::hw::sim::am
