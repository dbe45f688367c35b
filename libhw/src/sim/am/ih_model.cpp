// The fake GPU's IH (am-driver.md §11, §19.2 item 7): both rings' registers (IH_RB_CNTL[_RING1]
// enable, size, overflow enable and the WPTR_OVERFLOW_CLEAR pulse; BASE/BASE_HI as MC addresses;
// ring 0's WPTR_ADDR write-back page), IH_RB_WPTR reading the writer's pointer (byte offset, bit
// 0 = RB_OVERFLOW; a write sets the offset and clears the overflow when its bit 0 is 0),
// IH_RB_RPTR stored and read as a dword index (as AM writes it). Other models push entries
// (GMC faults, CP end-of-pipe, SDMA traps) to ring 0. BIF_BX0_BIF_DOORBELL_INT_CNTL carries the
// RAS status bits, cleared by the matching *_CLEAR bits.
//
// Faults (each is an event, entered at once): ih:sq-error[,type=T] (default 2, MEMVIOL);
// ih:eop[,ctx=C]; ih:entry,d0=D0[,ctx0=..][,ctx1=..] (any entry); ih:ras[,athub=1][,cntlr=1].

#include "sim/am/ih_model.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/hw/regs/register_map.hpp"

namespace wavescope::hw::sim::am {

namespace {
const BlockModelRegistration kIh("ih", 40, [](FakeGpu &gpu) -> std::unique_ptr<BlockModel> {
  if (!gpu.has_register("osssys.IH_RB_CNTL")) return nullptr;
  return std::make_unique<IhModel>(gpu);
});

std::uint32_t mask(const FakeGpu &gpu, const char *reg, const char *field) {
  const auto *r = regs::resolve_register(gpu.register_map(), reg).reg;
  const auto *f = r->field(field);
  return f ? static_cast<std::uint32_t>(f->mask()) : 0;
}
}  // namespace

IhModel::IhModel(FakeGpu &gpu) : gpu_(gpu) {
  soc_ = gpu_.ip_version("GC").major >= 11 ? hw::am::IhSoc::Soc21 : hw::am::IhSoc::Soc15;
  auto &regs = gpu_.registers();
  for (unsigned id = 0; id < 2; ++id) {
    const char *suffix = id == 0 ? "" : "_RING1";
    Keys &k = keys_[id];
    k.cntl = gpu_.key(fmt::format("osssys.IH_RB_CNTL{}", suffix));
    k.base = gpu_.key(fmt::format("osssys.IH_RB_BASE{}", suffix));
    k.base_hi = gpu_.key(fmt::format("osssys.IH_RB_BASE_HI{}", suffix));
    k.wptr = gpu_.key(fmt::format("osssys.IH_RB_WPTR{}", suffix));
    k.rptr = gpu_.key(fmt::format("osssys.IH_RB_RPTR{}", suffix));
    regs.on_write(
        k.cntl, [this, id](RegisterKey, std::uint32_t v, std::uint32_t) { control(id, v); }, "ih");
    for (RegisterKey b : {k.base, k.base_hi})
      regs.on_write(
          b, [this, id](RegisterKey, std::uint32_t, std::uint32_t) { rebase(id); }, "ih");
    regs.on_read(
        k.wptr, [this, id](RegisterKey, std::uint32_t) { return rings_[id].wptr_register(); },
        "ih");
    regs.on_write(
        k.wptr,
        [this, id](RegisterKey, std::uint32_t v, std::uint32_t) {
          auto &r = rings_[id];
          r.wptr = (v >> 2 & 0xFFFF) % std::max<std::uint32_t>(r.size_dwords, 1);
          if ((v & 1) == 0) r.overflow = false;
        },
        "ih");
    regs.own(k.rptr, "ih");
  }
  if (gpu_.has_register("osssys.IH_RB_WPTR_ADDR_LO")) {
    wptr_addr_lo_ = gpu_.key("osssys.IH_RB_WPTR_ADDR_LO");
    wptr_addr_hi_ = gpu_.key("osssys.IH_RB_WPTR_ADDR_HI");
    for (RegisterKey a : {wptr_addr_lo_, wptr_addr_hi_})
      regs.on_write(
          a, [this](RegisterKey, std::uint32_t, std::uint32_t) { rebase(0); }, "ih");
  }
  // Programmed by init and otherwise plain storage here.
  for (const char *name :
       {"osssys.IH_DOORBELL_RPTR", "osssys.IH_DOORBELL_RPTR_RING1",
        "osssys.IH_STORM_CLIENT_LIST_CNTL", "osssys.IH_INT_FLOOD_CNTL", "osssys.IH_MSI_STORM_CTRL"})
    if (gpu_.has_register(name)) regs.own(gpu_.key(name), "ih");
  enable_mask_ = mask(gpu_, "osssys.IH_RB_CNTL", "RB_ENABLE");
  overflow_enable_mask_ = mask(gpu_, "osssys.IH_RB_CNTL", "WPTR_OVERFLOW_ENABLE");
  overflow_clear_mask_ = mask(gpu_, "osssys.IH_RB_CNTL", "WPTR_OVERFLOW_CLEAR");
  size_shift_ =
      regs::resolve_register(gpu_.register_map(), "osssys.IH_RB_CNTL").reg->field("RB_SIZE")->lo;
  if (gpu_.has_register("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL")) {
    const char *bif = "nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL";
    bif_ = gpu_.key(bif);
    ras_cntlr_ = mask(gpu_, bif, "RAS_CNTLR_INTERRUPT_STATUS");
    ras_athub_ = mask(gpu_, bif, "RAS_ATHUB_ERR_EVENT_INTERRUPT_STATUS");
    clear_cntlr_ = mask(gpu_, bif, "RAS_CNTLR_INTERRUPT_CLEAR");
    clear_athub_ = mask(gpu_, bif, "RAS_ATHUB_ERR_EVENT_INTERRUPT_CLEAR");
    regs.on_read(
        bif_,
        [this](RegisterKey, std::uint32_t stored) {
          return (stored & ~(ras_cntlr_ | ras_athub_)) | ras_;
        },
        "ih");
    regs.on_write(
        bif_,
        [this](RegisterKey, std::uint32_t v, std::uint32_t) {
          if (v & clear_cntlr_) ras_ &= ~ras_cntlr_;
          if (v & clear_athub_) ras_ &= ~ras_athub_;
          // The clear bits do not stay set.
          gpu_.registers().poke(bif_, v & ~(clear_cntlr_ | clear_athub_));
        },
        "ih");
  }
}

void IhModel::control(unsigned id, std::uint32_t v) {
  auto &r = rings_[id];
  r.enabled = (v & enable_mask_) != 0;
  r.overflow_enable = (v & overflow_enable_mask_) != 0;
  r.size_dwords = 1u << ((v >> size_shift_) & 0x1F);
  if (v & overflow_clear_mask_) r.overflow = false;
  rebase(id);
}

void IhModel::rebase(unsigned id) {
  auto &r = rings_[id];
  const auto &regs = gpu_.registers();
  const std::uint64_t mc =
      (std::uint64_t{regs.peek(keys_[id].base)} | std::uint64_t{regs.peek(keys_[id].base_hi)} << 32)
      << 8;
  r.base_paddr = gpu_.mc_to_paddr(mc);
  if (id == 0 && wptr_addr_lo_) {
    const std::uint64_t wb =
        std::uint64_t{regs.peek(wptr_addr_lo_)} | std::uint64_t{regs.peek(wptr_addr_hi_)} << 32;
    if (wb)
      r.wptr_writeback_paddr = gpu_.mc_to_paddr(wb);
    else
      r.wptr_writeback_paddr.reset();
  }
}

bool IhModel::push(const IhDwords &entry) {
  auto &r = rings_[0];
  const std::uint32_t rptr = gpu_.registers().peek(keys_[0].rptr);
  const bool written = ih_push(r, rptr, gpu_.vram(), entry);
  gpu_.note(fmt::format(
      "ih: entry {:#010x} {}", entry[0],
      written ? fmt::format("at dword {:#x}", (r.wptr + r.size_dwords - 8) % r.size_dwords)
              : std::string(r.enabled ? "dropped (ring full)" : "dropped (ring off)")));
  return written;
}

void IhModel::reset(ResetKind) {
  rings_ = {};
  ras_ = 0;
}

bool IhModel::arm_fault(const FaultRequest &f) {
  if (f.kind == "sq-error") {
    push(ih_sq_error_entry(soc_, static_cast<unsigned>(f.number("type", 2))));
    return true;
  }
  if (f.kind == "eop") {
    push(ih_eop_entry(soc_, static_cast<std::uint32_t>(f.number("ctx", 0))));
    return true;
  }
  if (f.kind == "entry") {
    IhDwords d{};
    d[0] = static_cast<std::uint32_t>(f.number("d0", 0));
    for (unsigned i = 0; i < 4; ++i)
      d[4 + i] = static_cast<std::uint32_t>(f.number(fmt::format("ctx{}", i), 0));
    push(d);
    return true;
  }
  if (f.kind == "ras") {
    if (!bif_) return false;
    if (f.number("cntlr", 0)) ras_ |= ras_cntlr_;
    if (f.number("athub", f.has("cntlr") ? 0 : 1)) ras_ |= ras_athub_;
    gpu_.note(fmt::format("ih: RAS status {:#x}", ras_));
    return true;
  }
  return false;
}

std::vector<std::string> IhModel::fault_kinds() const {
  return {"sq-error[,type=T]", "eop[,ctx=C]", "entry,d0=D0[,ctx0..ctx3=V]",
          "ras[,athub=1][,cntlr=1]"};
}

nlohmann::json IhModel::save() const {
  nlohmann::json rings = nlohmann::json::array();
  for (const auto &r : rings_)
    rings.push_back({{"enabled", r.enabled},
                     {"overflow_enable", r.overflow_enable},
                     {"base", r.base_paddr},
                     {"size", r.size_dwords},
                     {"wptr", r.wptr},
                     {"overflow", r.overflow},
                     {"writeback", r.wptr_writeback_paddr ? nlohmann::json(*r.wptr_writeback_paddr)
                                                          : nlohmann::json(nullptr)},
                     {"written", r.written},
                     {"dropped", r.dropped}});
  return {{"rings", rings}, {"ras", ras_}};
}

void IhModel::load(const nlohmann::json &j) {
  if (!j.is_object()) return;
  const auto rings = j.value("rings", nlohmann::json::array());
  for (std::size_t i = 0; i < rings.size() && i < 2; ++i) {
    auto &r = rings_[i];
    const auto &s = rings[i];
    r.enabled = s.value("enabled", false);
    r.overflow_enable = s.value("overflow_enable", false);
    r.base_paddr = s.value("base", std::uint64_t{0});
    r.size_dwords = s.value("size", std::uint32_t{0});
    r.wptr = s.value("wptr", std::uint32_t{0});
    r.overflow = s.value("overflow", false);
    if (s.contains("writeback") && !s["writeback"].is_null())
      r.wptr_writeback_paddr = s["writeback"].get<std::uint64_t>();
    r.written = s.value("written", std::uint64_t{0});
    r.dropped = s.value("dropped", std::uint64_t{0});
  }
  ras_ = j.value("ras", std::uint32_t{0});
}

nlohmann::json IhModel::status() const {
  nlohmann::json rings = nlohmann::json::array();
  for (unsigned id = 0; id < 2; ++id) {
    const auto &r = rings_[id];
    rings.push_back({{"ring", id},
                     {"enabled", r.enabled},
                     {"base", fmt::format("0x{:X}", r.base_paddr)},
                     {"dwords", r.size_dwords},
                     {"wptr", r.wptr},
                     {"rptr", gpu_.registers().peek(keys_[id].rptr)},
                     {"overflow", r.overflow},
                     {"written", r.written},
                     {"dropped", r.dropped}});
  }
  return {{"rings", rings}, {"ras_status", ras_}};
}

}  // namespace wavescope::hw::sim::am
