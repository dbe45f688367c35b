#include "wavescope/hw/am/ih_ring.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::am {

namespace {
std::uint32_t read_dword(const VramAccess &vram, std::uint64_t paddr) {
  const std::uint64_t word = vram.read64(paddr & ~std::uint64_t{7});
  return static_cast<std::uint32_t>(paddr & 4 ? word >> 32 : word);
}
}  // namespace

std::optional<IhRings> programmed_ih_rings(AmRegisters &regs, const GmcBlock &gmc) {
  const std::uint32_t cntl = regs.read("osssys.IH_RB_CNTL");
  if (regs.field("osssys.IH_RB_CNTL", "RB_ENABLE", cntl) == 0) return std::nullopt;
  const auto size = regs.field("osssys.IH_RB_CNTL", "RB_SIZE", cntl);
  if (size != 16)
    throw Error(ErrorKind::Device,
                fmt::format("IH ring 0 holds 2^{} dwords (IH_RB_CNTL {:#010x}); AM's rings hold "
                            "2^16",
                            size, cntl));
  auto paddr = [&](std::uint64_t mc) { return mc - gmc.apertures().mc_base; };
  auto base = [&](const char *suffix) {
    return paddr((std::uint64_t{regs.read(fmt::format("osssys.IH_RB_BASE{}", suffix))} |
                  std::uint64_t{regs.read(fmt::format("osssys.IH_RB_BASE_HI{}", suffix))} << 32)
                 << 8);
  };
  IhRings r;
  r.ring0 = base("");
  r.ring1 = base("_RING1");
  r.ring0_wptr = paddr(std::uint64_t{regs.read("osssys.IH_RB_WPTR_ADDR_LO")} |
                       std::uint64_t{regs.read("osssys.IH_RB_WPTR_ADDR_HI")} << 32);
  r.ring1_wptr = 0;  // ring 1 has no write-back page register
  return r;
}

IhBlock::IhBlock(AmRegisters &regs, VramAccess &vram, GmcBlock &gmc, const AmChipInfo &chip,
                 IhRings rings)
    : regs_(regs), vram_(vram), gmc_(gmc), chip_(chip), rings_(rings) {}

void IhBlock::init_hw() {
  const unsigned rb_size = 16;  // bit length of (ring dwords − 1): 64 Ki dwords
  struct Ring {
    std::uint64_t ring, wptr;
    const char *suffix;
    unsigned id;
  };
  const Ring rings[] = {{rings_.ring0, rings_.ring0_wptr, "", 0},
                        {rings_.ring1, rings_.ring1_wptr, "_RING1", 1}};
  for (const Ring &r : rings) {
    const std::uint64_t base = gmc_.paddr_to_mc(r.ring) >> 8;
    regs_.write(fmt::format("osssys.IH_RB_BASE{}", r.suffix), static_cast<std::uint32_t>(base));
    regs_.write(fmt::format("osssys.IH_RB_BASE_HI{}", r.suffix),
                static_cast<std::uint32_t>(base >> 32));
    const std::string cntl = fmt::format("osssys.IH_RB_CNTL{}", r.suffix);
    if (r.id == 0)
      regs_.write_fields(cntl, {{"MC_SPACE", 4},
                                {"WPTR_OVERFLOW_CLEAR", 1},
                                {"RB_SIZE", rb_size},
                                {"MC_SNOOP", 1},
                                {"MC_RO", 0},
                                {"MC_VMID", 0},
                                {"WPTR_OVERFLOW_ENABLE", 1},
                                {"RPTR_REARM", 1}});
    else
      regs_.write_fields(cntl, {{"MC_SPACE", 4},
                                {"WPTR_OVERFLOW_CLEAR", 1},
                                {"RB_SIZE", rb_size},
                                {"MC_SNOOP", 1},
                                {"MC_RO", 0},
                                {"MC_VMID", 0},
                                {"RB_FULL_DRAIN_ENABLE", 1}});
    if (r.id == 0)
      regs_.write_pair("osssys.IH_RB_WPTR_ADDR", "_LO", "_HI", gmc_.paddr_to_mc(r.wptr));
    regs_.write(fmt::format("osssys.IH_RB_WPTR{}", r.suffix), 0);
    regs_.write(fmt::format("osssys.IH_RB_RPTR{}", r.suffix), 0);
    regs_.write_fields(fmt::format("osssys.IH_DOORBELL_RPTR{}", r.suffix), {{"ENABLE", 0}});
  }
  if (chip_.osssys != regs::IpVersion{4, 4, 2}) {
    regs_.update("osssys.IH_STORM_CLIENT_LIST_CNTL", {{"CLIENT18_IS_STORM_CLIENT", 1}});
    regs_.update("osssys.IH_INT_FLOOD_CNTL", {{"FLOOD_CNTL_ENABLE", 1}});
    regs_.update("osssys.IH_MSI_STORM_CTRL", {{"DELAY", 3}});
  }
  regs_.update("osssys.IH_RB_CNTL", {{"RB_ENABLE", 1}, {"ENABLE_INTR", 1}});
  regs_.update("osssys.IH_RB_CNTL_RING1", {{"RB_ENABLE", 1}});
}

IhReport IhBlock::interrupt_handler() {
  IhReport report;
  const std::uint32_t wptr_reg = regs_.read("osssys.IH_RB_WPTR");
  report.wptr = static_cast<std::uint32_t>(regs_.field("osssys.IH_RB_WPTR", "OFFSET", wptr_reg));
  report.rptr = regs_.read("osssys.IH_RB_RPTR");
  if (report.rptr % 8 != 0 || report.rptr >= kIhRingDwords || report.wptr % 8 != 0)
    throw Error(ErrorKind::Device,
                fmt::format("IH ring 0: rptr {:#x} / wptr {:#x} (dwords) are not entry indices "
                            "below {:#x}",
                            report.rptr, report.wptr, kIhRingDwords));
  std::uint32_t rptr = report.rptr;
  while (rptr != report.wptr) {
    std::uint32_t d[8];
    for (unsigned i = 0; i < 8; ++i)
      d[i] = read_dword(vram_, rings_.ring0 + std::uint64_t{(rptr + i) % kIhRingDwords} * 4);
    IhHandledEntry handled;
    handled.rptr = rptr;
    handled.entry = decode_ih_entry(d);
    handled.verdict = ih_verdict(soc(), handled.entry);
    if (handled.verdict.action == IhAction::VmFault) {
      handled.fault = gmc_.read_gc_fault();
      gmc_.clear_gc_fault();
    }
    report.error_state |= handled.verdict.error_state;
    report.entries.push_back(std::move(handled));
    rptr = (rptr + 8) % kIhRingDwords;
  }
  report.overflow = drain();

  const std::uint32_t bif = regs_.read("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL");
  report.ras_athub = regs_.field("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL",
                                 "RAS_ATHUB_ERR_EVENT_INTERRUPT_STATUS", bif) != 0;
  report.ras_cntlr =
      regs_.field("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL", "RAS_CNTLR_INTERRUPT_STATUS", bif) != 0;
  if (report.ras_athub || report.ras_cntlr) {
    regs_.write_fields("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL",
                       {{"RAS_CNTLR_INTERRUPT_CLEAR", report.ras_cntlr ? 1u : 0u},
                        {"RAS_ATHUB_ERR_EVENT_INTERRUPT_CLEAR", report.ras_athub ? 1u : 0u}});
    report.error_state = true;
  }
  return report;
}

bool IhBlock::drain() {
  const std::uint32_t wptr = regs_.read("osssys.IH_RB_WPTR");
  const auto offset = regs_.field("osssys.IH_RB_WPTR", "OFFSET", wptr);
  regs_.write("osssys.IH_RB_RPTR", static_cast<std::uint32_t>(offset % kIhRingDwords));
  if (regs_.field("osssys.IH_RB_WPTR", "RB_OVERFLOW", wptr) == 0) return false;
  regs_.update("osssys.IH_RB_WPTR", {{"RB_OVERFLOW", 0}});
  regs_.update("osssys.IH_RB_CNTL", {{"WPTR_OVERFLOW_CLEAR", 1}});
  regs_.update("osssys.IH_RB_CNTL", {{"WPTR_OVERFLOW_CLEAR", 0}});
  return true;
}

}  // namespace wavescope::hw::am
