// The fake GPU's SDMA (am-driver.md §12.6, §12.7, §19.2 item 9): the queue AM drives —
// SDMA0_QUEUE0_* on SDMA 6/7, SDMA_GFX_* on every SDMA 4.4 instance. Writing RB_CNTL with RB_ENABLE
// starts it from RB_BASE/_HI (<< 8), RB_SIZE (log2 dwords), RB_RPTR/RB_WPTR (bytes), the rptr
// write-back address (RPTR_WRITEBACK_ENABLE) and the doorbell (DOORBELL.ENABLE,
// DOORBELL_OFFSET.OFFSET / 2 = slot); clearing it stops it. A doorbell (low dword) on its slot
// sets the write pointer (bytes) and runs the executor — COPY, WRITE, FENCE, POLL_REGMEM,
// TIMESTAMP, TRAP (an SDMA_TRAP entry on the IH), INDIRECT — through VMID 0 of XCC 0's GC hub;
// page faults go to the GMC, the access to the default page (or the queue stops without one). On
// SDMA 6/7 the engine is halted at reset until F32_CNTL / MCU_CNTL.HALT is cleared (SDMA init
// does); GRBM_SOFT_RESET.SOFT_RESET_SDMA0 stops every queue. The engine setup registers (watchdog,
// UTCL1, CNTL, IB_CNTL, the doorbell routing entries) are plain storage.
//
// Faults: sdma:hang (doorbells are ignored).

#include "sim/am/sdma_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/gmc_model.hpp"
#include "sim/am/ih_model.hpp"
#include "sim/am/model_registers.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr unsigned kCidSdma = 0x3;  // CID the GMC latches for SDMA faults (a stand-in)

const BlockModelRegistration kSdma("sdma", 60, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (!gpu.has_register("gc.SDMA0_QUEUE0_RB_CNTL") && !gpu.has_register("sdma0.SDMA_GFX_RB_CNTL"))
    return nullptr;
  return std::make_unique<SdmaModel>(gpu);
});

std::uint32_t field_mask(const FakeGpu &gpu, const std::string &reg, const char *field) {
  const auto *r = regs::resolve_register(gpu.register_map(), reg).reg;
  const auto *f = r->field(field);
  return f ? static_cast<std::uint32_t>(f->mask()) : 0;
}

class Environment final : public SdmaEnvironment {
public:
  explicit Environment(FakeGpu &gpu) : gpu_(gpu) {}
  std::uint32_t read_register(std::uint32_t address) override {
    return gpu_.registers().peek(address);
  }
  std::uint64_t gpu_clock() override {
    return static_cast<std::uint64_t>(gpu_.clock().now().time_since_epoch().count()) / 10;
  }
  void trap(std::uint32_t context) override {
    if (auto *ih = dynamic_cast<IhModel *>(gpu_.block("ih")))
      ih->push(ih_sdma_trap_entry(ih->soc(), context));
  }

private:
  FakeGpu &gpu_;
};
}  // namespace

SdmaModel::SdmaModel(FakeGpu &gpu) : gpu_(gpu) {
  auto &regs = gpu_.registers();
  const bool sdma4 = !gpu_.has_register("gc.SDMA0_QUEUE0_RB_CNTL");
  const std::string prefix = sdma4 ? "sdma0.SDMA_GFX" : "gc.SDMA0_QUEUE0";
  const unsigned instances =
      sdma4 ? static_cast<unsigned>(gpu_.register_map().block("sdma0")->bases.size()) : 1;
  rb_enable_ = field_mask(gpu_, prefix + "_RB_CNTL", "RB_ENABLE");
  writeback_enable_ = field_mask(gpu_, prefix + "_RB_CNTL", "RPTR_WRITEBACK_ENABLE");
  rb_size_shift_ =
      regs::resolve_register(gpu_.register_map(), prefix + "_RB_CNTL").reg->field("RB_SIZE")->lo;
  queues_.reserve(instances);
  for (unsigned i = 0; i < instances; ++i) {
    Queue q;
    q.name = prefix;
    q.instance = i;
    auto k = [&](const char *suffix) { return gpu_.key(prefix + suffix, i); };
    q.rb_cntl = k("_RB_CNTL");
    q.base = k("_RB_BASE");
    q.base_hi = k("_RB_BASE_HI");
    q.rptr = k("_RB_RPTR");
    q.rptr_hi = k("_RB_RPTR_HI");
    q.wptr = k("_RB_WPTR");
    q.wptr_hi = k("_RB_WPTR_HI");
    q.rptr_addr_lo = k("_RB_RPTR_ADDR_LO");
    q.rptr_addr_hi = k("_RB_RPTR_ADDR_HI");
    q.doorbell = k("_DOORBELL");
    q.doorbell_offset = k("_DOORBELL_OFFSET");
    queues_.push_back(q);
  }
  for (std::size_t n = 0; n < queues_.size(); ++n) {
    Queue &q = queues_[n];
    regs.on_write(
        q.rb_cntl,
        [this, n](RegisterKey, std::uint32_t v, std::uint32_t) { control(queues_[n], v); }, "sdma");
    for (RegisterKey d : {q.doorbell, q.doorbell_offset})
      regs.on_write(
          d, [this, n](RegisterKey, std::uint32_t, std::uint32_t) { doorbell_changed(queues_[n]); },
          "sdma");
    auto pointer = [&](RegisterKey key, bool read_ptr, bool high) {
      regs.on_read(
          key,
          [this, n, read_ptr, high](RegisterKey, std::uint32_t stored) {
            const Queue &s = queues_[n];
            if (!s.enabled) return stored;
            const std::uint64_t v = read_ptr ? s.run.rptr : s.run.wptr;
            return static_cast<std::uint32_t>(high ? v >> 32 : v);
          },
          "sdma");
      if (!read_ptr)
        regs.on_write(
            key,
            [this, n, high](RegisterKey, std::uint32_t v, std::uint32_t) {
              Queue &s = queues_[n];
              if (!s.enabled) return;
              s.run.wptr = high ? (s.run.wptr & 0xFFFF'FFFF) | std::uint64_t{v} << 32
                                : (s.run.wptr & ~0xFFFF'FFFFull) | v;
            },
            "sdma");
    };
    pointer(q.rptr, true, false);
    pointer(q.rptr_hi, true, true);
    pointer(q.wptr, false, false);
    pointer(q.wptr_hi, false, true);
    for (RegisterKey key : {q.base, q.base_hi, q.rptr_addr_lo, q.rptr_addr_hi})
      regs.own(key, "sdma");
  }
  for (const char *suffix :
       {"_IB_CNTL", "_MINOR_PTR_UPDATE", "_RB_WPTR_POLL_ADDR_LO", "_RB_WPTR_POLL_ADDR_HI"})
    own_on_every_instance(gpu_, prefix + suffix, "sdma");
  for (const char *name :
       {"gc.SDMA0_WATCHDOG_CNTL", "gc.SDMA0_UTCL1_CNTL", "gc.SDMA0_UTCL1_PAGE", "gc.SDMA0_CNTL",
        "sdma0.SDMA_CNTL", "nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_2_CTRL",
        "nbio.S2A_DOORBELL_ENTRY_2_CTRL"})
    own_on_every_instance(gpu_, name, "sdma");
  for (unsigned e = 1; e <= 16; ++e)
    own_on_every_instance(gpu_, fmt::format("nbio.DOORBELL0_CTRL_ENTRY_{}", e), "sdma");
  for (const char *cntl : {"gc.SDMA0_MCU_CNTL", "gc.SDMA0_F32_CNTL"}) {
    if (!gpu_.has_register(cntl)) continue;
    engine_cntl_ = gpu_.key(cntl);
    halt_mask_ = field_mask(gpu_, cntl, "HALT");
    regs.own(engine_cntl_, "sdma");
    break;
  }
  if (gpu_.has_register("gc.GRBM_SOFT_RESET")) {
    soft_reset_sdma_ = field_mask(gpu_, "gc.GRBM_SOFT_RESET", "SOFT_RESET_SDMA0");
    if (soft_reset_sdma_)
      regs.on_write(
          gpu_.key("gc.GRBM_SOFT_RESET"),
          [this](RegisterKey, std::uint32_t v, std::uint32_t) {
            if ((v & soft_reset_sdma_) == 0) return;
            for (auto &q : queues_) q.enabled = false, q.state = "reset";
            gpu_.note("sdma: GRBM soft reset: every queue stopped");
          },
          "sdma");
  }
  gpu_.on_doorbell([this](const DoorbellWrite &w) { doorbell(w.offset, w.value); });
}

bool SdmaModel::halted() const {
  return engine_cntl_ && (gpu_.registers().peek(engine_cntl_) & halt_mask_) != 0;
}

void SdmaModel::doorbell_changed(Queue &q) {
  const auto &regs = gpu_.registers();
  q.doorbell_enabled =
      (regs.peek(q.doorbell) & field_mask(gpu_, q.name + "_DOORBELL", "ENABLE")) != 0;
  const auto *f =
      regs::resolve_register(gpu_.register_map(), q.name + "_DOORBELL_OFFSET").reg->field("OFFSET");
  q.doorbell_slot = static_cast<unsigned>(regs::decode_field(*f, regs.peek(q.doorbell_offset)) / 2);
}

void SdmaModel::control(Queue &q, std::uint32_t v) {
  const bool enable = (v & rb_enable_) != 0;
  if (enable && !q.enabled) {
    const auto &regs = gpu_.registers();
    SdmaQueue r;
    r.ring_va = (std::uint64_t{regs.peek(q.base)} | std::uint64_t{regs.peek(q.base_hi)} << 32) << 8;
    r.ring_bytes = 4u << ((v >> rb_size_shift_) & 0x1F);
    r.rptr = std::uint64_t{regs.peek(q.rptr)} | std::uint64_t{regs.peek(q.rptr_hi)} << 32;
    r.wptr = std::uint64_t{regs.peek(q.wptr)} | std::uint64_t{regs.peek(q.wptr_hi)} << 32;
    if (v & writeback_enable_)
      r.rptr_writeback_va =
          std::uint64_t{regs.peek(q.rptr_addr_lo)} | std::uint64_t{regs.peek(q.rptr_addr_hi)} << 32;
    q.run = r;
    q.enabled = true;
    q.state = "idle";
    doorbell_changed(q);
    gpu_.note(fmt::format("sdma: {} instance {} enabled: ring {:#x} ({:#x} bytes), doorbell {}",
                          q.name, q.instance, r.ring_va, r.ring_bytes, q.doorbell_slot));
  } else if (!enable && q.enabled) {
    q.enabled = false;
    q.state = "off";
    gpu_.note(fmt::format("sdma: {} instance {} disabled", q.name, q.instance));
  }
}

void SdmaModel::doorbell(std::uint64_t offset, std::uint32_t value) {
  if (offset % 8 != 0) return;
  const unsigned slot = static_cast<unsigned>(offset / 8);
  bool mine = false;
  for (auto &q : queues_)
    if (q.enabled && q.doorbell_enabled && q.doorbell_slot == slot) {
      q.run.wptr = value;
      mine = true;
    }
  if (mine && !has_fault("hang")) run_queues();
}

void SdmaModel::run_queues() {
  auto *gmc = dynamic_cast<GmcModel *>(gpu_.block("gmc"));
  if (!gmc || halted()) return;
  GpuMemory memory(gpu_.vram(), nullptr);
  Environment env(gpu_);
  for (int round = 0; round < 64; ++round) {
    bool progress = false;
    for (auto &q : queues_) {
      if (!q.enabled || q.state.rfind("fault", 0) == 0) continue;
      GpuAddressSpace space(memory, gmc->mmu_config(0),
                            [gmc](const MmuFault &f) { gmc->report_fault(f, kCidSdma); });
      const auto r = run_sdma(q.run, space, env);
      progress |= r.packets > 0;
      q.state = r.status == QueueRunStatus::Idle
                    ? "idle"
                    : fmt::format("{}: {}", queue_run_status_name(r.status), r.message);
      if (r.status == QueueRunStatus::Fault) {
        gpu_.note(fmt::format("sdma: {} instance {} stopped: {}", q.name, q.instance, r.message));
        if (r.page_fault) gmc->report_fault(*r.page_fault, kCidSdma);
      }
    }
    if (!progress) break;
  }
}

bool SdmaModel::has_fault(const std::string &kind) const {
  for (const auto &f : faults_)
    if (f.kind == kind) return true;
  return false;
}

void SdmaModel::reset(ResetKind) {
  for (auto &q : queues_) {
    q.enabled = q.doorbell_enabled = false;
    q.run = {};
    q.state.clear();
  }
  if (engine_cntl_) gpu_.registers().poke(engine_cntl_, halt_mask_);  // halted until init
}

bool SdmaModel::arm_fault(const FaultRequest &f) {
  if (f.kind != "hang") return false;
  faults_.push_back(f);
  return true;
}

void SdmaModel::clear_faults() { faults_.clear(); }

std::vector<std::string> SdmaModel::fault_kinds() const { return {"hang"}; }

nlohmann::json SdmaModel::save() const {
  nlohmann::json queues = nlohmann::json::array();
  for (const auto &q : queues_) {
    nlohmann::json ibs = nlohmann::json::array();
    for (const auto &ib : q.run.ibs) ibs.push_back({ib.va, ib.size, ib.offset});
    queues.push_back({{"enabled", q.enabled},
                      {"doorbell_enabled", q.doorbell_enabled},
                      {"doorbell", q.doorbell_slot},
                      {"ring", q.run.ring_va},
                      {"bytes", q.run.ring_bytes},
                      {"rptr", q.run.rptr},
                      {"wptr", q.run.wptr},
                      {"writeback", q.run.rptr_writeback_va},
                      {"ibs", ibs},
                      {"packets", q.run.packets},
                      {"copied", q.run.copied_bytes},
                      {"traps", q.run.traps},
                      {"state", q.state}});
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"queues", queues}, {"faults", faults}};
}

void SdmaModel::load(const nlohmann::json &j) {
  if (!j.is_object()) return;
  const auto queues = j.value("queues", nlohmann::json::array());
  for (std::size_t i = 0; i < queues.size() && i < queues_.size(); ++i) {
    auto &q = queues_[i];
    const auto &s = queues[i];
    q.enabled = s.value("enabled", false);
    q.doorbell_enabled = s.value("doorbell_enabled", false);
    q.doorbell_slot = s.value("doorbell", 0u);
    q.run.ring_va = s.value("ring", std::uint64_t{0});
    q.run.ring_bytes = s.value("bytes", std::uint32_t{0});
    q.run.rptr = s.value("rptr", std::uint64_t{0});
    q.run.wptr = s.value("wptr", std::uint64_t{0});
    q.run.rptr_writeback_va = s.value("writeback", std::uint64_t{0});
    q.run.ibs.clear();
    for (const auto &ib : s.value("ibs", nlohmann::json::array()))
      q.run.ibs.push_back(
          {ib[0].get<std::uint64_t>(), ib[1].get<std::uint32_t>(), ib[2].get<std::uint32_t>()});
    q.run.packets = s.value("packets", std::uint64_t{0});
    q.run.copied_bytes = s.value("copied", std::uint64_t{0});
    q.run.traps = s.value("traps", std::uint64_t{0});
    q.state = s.value("state", std::string());
  }
  faults_.clear();
  for (const auto &t : j.value("faults", nlohmann::json::array()))
    faults_.push_back(parse_fault_request(t.get<std::string>()));
}

nlohmann::json SdmaModel::status() const {
  nlohmann::json queues = nlohmann::json::array();
  for (const auto &q : queues_) {
    if (!q.enabled && q.state.empty()) continue;
    queues.push_back({{"queue", q.name},
                      {"instance", q.instance},
                      {"enabled", q.enabled},
                      {"ring", fmt::format("0x{:X}", q.run.ring_va)},
                      {"bytes", q.run.ring_bytes},
                      {"rptr", q.run.rptr},
                      {"wptr", q.run.wptr},
                      {"doorbell", q.doorbell_slot},
                      {"packets", q.run.packets},
                      {"state", q.state}});
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const auto &f : faults_) faults.push_back(f.text);
  return {{"halted", halted()}, {"queues", queues}, {"faults", faults}};
}

}  // namespace wavescope::hw::sim::am
