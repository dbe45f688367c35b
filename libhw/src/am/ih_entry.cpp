#include "wavescope/hw/am/ih_entry.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {
struct Source {
  unsigned id;
  const char *name;
};
// From Debian linux-source-6.12: drivers/gpu/drm/amd/include/ivsrcid/gfx/irqsrcs_gfx_11_0_0.h
// (used for gfx12 too: tinygrad's irqsrcs_gfx_12_0_0 ids are hand-written, §21.1).
constexpr Source kGfx11[] = {
    {0, "UTCL2_FAULT"},
    {1, "UTCL2_DATA_POISONING"},
    {10, "MEM_ACCES_MON"},
    {48, "SDMA_ATOMIC_RTN_DONE"},
    {49, "SDMA_TRAP"},
    {50, "SDMA_SRBMWRITE"},
    {51, "SDMA_CTXEMPTY"},
    {52, "SDMA_PREEMPT"},
    {53, "SDMA_IB_PREEMPT"},
    {54, "SDMA_DOORBELL_INVALID"},
    {55, "SDMA_QUEUE_HANG"},
    {56, "SDMA_ATOMIC_TIMEOUT"},
    {57, "SDMA_POLL_TIMEOUT"},
    {58, "SDMA_PAGE_TIMEOUT"},
    {59, "SDMA_PAGE_NULL"},
    {60, "SDMA_PAGE_FAULT"},
    {61, "SDMA_VM_HOLE"},
    {62, "SDMA_ECC"},
    {63, "SDMA_FROZEN"},
    {64, "SDMA_SRAM_ECC"},
    {65, "SDMA_SEM_INCOMPLETE_TIMEOUT"},
    {66, "SDMA_SEM_WAIT_FAIL_TIMEOUT"},
    {128, "RLC_GC_FED_INTERRUPT"},
    {177, "CP_GENERIC_INT"},
    {180, "CP_PM4_PKT_RSVD_BIT_ERROR"},
    {181, "CP_EOP_INTERRUPT"},
    {183, "CP_BAD_OPCODE_ERROR"},
    {184, "CP_PRIV_REG_FAULT"},
    {185, "CP_PRIV_INSTR_FAULT"},
    {186, "CP_WAIT_MEM_SEM_FAULT"},
    {187, "CP_CTX_EMPTY_INTERRUPT"},
    {188, "CP_CTX_BUSY_INTERRUPT"},
    {192, "CP_ME_WAIT_REG_MEM_POLL_TIMEOUT"},
    {193, "CP_SIG_INCOMPLETE"},
    {194, "CP_PREEMPT_ACK"},
    {195, "CP_GPF"},
    {196, "CP_GDS_ALLOC_ERROR"},
    {197, "CP_ECC_ERROR"},
    {199, "CP_COMPUTE_QUERY_STATUS"},
    {200, "CP_VM_DOORBELL"},
    {201, "CP_FUE_ERROR"},
    {202, "RLC_STRM_PERF_MONITOR_INTERRUPT"},
    {232, "GRBM_RD_TIMEOUT_ERROR"},
    {233, "GRBM_REG_GUI_IDLE"},
    {239, "SQ_INTERRUPT_ID"},
};
// ivsrcid/gfx/irqsrcs_gfx_9_0.h and ivsrcid/sdma0/irqsrcs_sdma0_4_0.h.
constexpr Source kGfx9Sdma4[] = {
    {176, "CP_RB_INTERRUPT_PKT"},
    {177, "CP_IB1_INTERRUPT_PKT"},
    {178, "CP_IB2_INTERRUPT_PKT"},
    {180, "CP_PM4_PKT_RSVD_BIT_ERROR"},
    {181, "CP_EOP_INTERRUPT"},
    {183, "CP_BAD_OPCODE_ERROR"},
    {184, "CP_PRIV_REG_FAULT"},
    {185, "CP_PRIV_INSTR_FAULT"},
    {186, "CP_WAIT_MEM_SEM_FAULT"},
    {187, "CP_CTX_EMPTY_INTERRUPT"},
    {188, "CP_CTX_BUSY_INTERRUPT"},
    {192, "CP_ME_WAIT_REG_MEM_POLL_TIMEOUT"},
    {193, "CP_SIG_INCOMPLETE"},
    {194, "CP_PREEMPT_ACK"},
    {195, "CP_GPF"},
    {196, "CP_GDS_ALLOC_ERROR"},
    {197, "CP_ECC_ERROR"},
    {199, "CP_COMPUTE_QUERY_STATUS"},
    {200, "CP_VM_DOORBELL"},
    {201, "CP_FUE_ERROR"},
    {202, "RLC_STRM_PERF_MONITOR_INTERRUPT"},
    {232, "GRBM_RD_TIMEOUT_ERROR"},
    {233, "GRBM_REG_GUI_IDLE"},
    {239, "SQ_INTERRUPT_ID"},
    {217, "SDMA_ATOMIC_RTN_DONE"},
    {218, "SDMA_ATOMIC_TIMEOUT"},
    {219, "SDMA_IB_PREEMPT"},
    {220, "SDMA_ECC"},
    {221, "SDMA_PAGE_FAULT"},
    {222, "SDMA_PAGE_NULL"},
    {223, "SDMA_XNACK"},
    {224, "SDMA_TRAP"},
    {225, "SDMA_SEM_INCOMPLETE_TIMEOUT"},
    {226, "SDMA_SEM_WAIT_FAIL_TIMEOUT"},
    {228, "SDMA_SRAM_ECC"},
    {240, "SDMA_PREEMPT"},
    {242, "SDMA_VM_HOLE"},
    {243, "SDMA_CTXEMPTY"},
    {244, "SDMA_DOORBELL_INVALID"},
    {245, "SDMA_FROZEN"},
    {246, "SDMA_POLL_TIMEOUT"},
    {247, "SDMA_SRBMWRITE"},
};
constexpr std::size_t kGfx9Count = 24;  // the gfx9 entries come first
}  // namespace

std::string ih_source_name(IhSoc soc, unsigned client, unsigned source_id) {
  std::span<const Source> table;
  if (soc == IhSoc::Soc21) {
    if (client == 20 || client == 10) table = kGfx11;           // GRBM_CP, GFX
  } else if (client == 20 || (client >= 10 && client <= 13)) {  // GRBM_CP, SE0SH..SE3SH
    table = std::span<const Source>(kGfx9Sdma4, kGfx9Count);
  } else {
    // SDMA0 8, SDMA1 9, SDMA2 = ACP 1, SDMA3 = DCE 4, SDMA4 = ISP 5, SDMA5 = VCE0 0x11,
    // SDMA6 = XDMA 0x13, SDMA7 = VCE1 0x18 (soc15_ih_clientid.h).
    for (unsigned c : {8u, 9u, 1u, 4u, 5u, 0x11u, 0x13u, 0x18u})
      if (client == c) table = std::span<const Source>(kGfx9Sdma4).subspan(kGfx9Count);
  }
  for (const auto &s : table)
    if (s.id == source_id) return s.name;
  return "";
}

IhEntry decode_ih_entry(std::span<const std::uint32_t> d) {
  if (d.size() != 8)
    throw_bad_input(fmt::format("IH entry: 0x{:X} dwords, an entry is 8", d.size()));
  IhEntry e;
  e.client_id = static_cast<std::uint8_t>(d[0]);
  e.source_id = static_cast<std::uint8_t>(d[0] >> 8);
  e.ring_id = static_cast<std::uint8_t>(d[0] >> 16);
  e.vmid = static_cast<std::uint8_t>((d[0] >> 24) & 0xF);
  e.vmid_type = (d[0] >> 31) & 1;
  e.pasid = static_cast<std::uint16_t>(d[3]);
  e.node_id = static_cast<std::uint8_t>(d[3] >> 16);
  for (int i = 0; i < 4; ++i) e.context[i] = d[4 + i];
  for (int i = 0; i < 8; ++i) e.dwords[i] = d[i];
  return e;
}

std::vector<IhEntry> ih_ring_entries(std::span<const std::uint32_t> ring, std::uint32_t rptr,
                                     std::uint32_t wptr) {
  if (ring.empty() || ring.size() % 8 || rptr % 8 || wptr % 8 || rptr >= ring.size() ||
      wptr >= ring.size())
    throw_bad_input(fmt::format("IH ring of 0x{:X} dwords: rptr 0x{:X} / wptr 0x{:X} must be "
                                "multiples of 8 below the ring size (itself a multiple of 8)",
                                ring.size(), rptr, wptr));
  std::vector<IhEntry> out;
  for (std::uint32_t r = rptr; r != wptr; r = static_cast<std::uint32_t>((r + 8) % ring.size()))
    out.push_back(decode_ih_entry(ring.subspan(r, 8)));
  return out;
}

const char *ih_action_name(IhAction action) {
  switch (action) {
  case IhAction::Ignore: return "ignore";
  case IhAction::SqError: return "sq-error";
  case IhAction::VmFault: return "vm-fault";
  case IhAction::Unexpected: return "unexpected";
  }
  return "?";
}

const char *sq_error_type_name(unsigned type) {
  static const char *const names[] = {"EDC_FUE", "ILLEGAL_INST", "MEMVIOL", "EDC_FED"};
  return type < 4 ? names[type] : "UNKNOWN";
}

IhVerdict ih_verdict(IhSoc soc, const IhEntry &e) {
  IhVerdict v;
  v.source_name = ih_source_name(soc, e.client_id, e.source_id);
  const std::string what =
      fmt::format("IH entry client {} source {} ({})", e.client_id, e.source_id,
                  v.source_name.empty() ? "unknown" : v.source_name);
  auto set = [&](IhAction a, std::string detail) {
    v.action = a;
    v.error_state = a != IhAction::Ignore;
    v.message = fmt::format("{}: {}", what, detail);
    return v;
  };
  // SOC15 (gfx9): every entry from the UTCL2 client is a VM fault, whatever its source.
  const bool utcl2 =
      v.source_name == "UTCL2_FAULT" || (soc == IhSoc::Soc15 && e.client_id == kIhClientUtcl2Soc15);
  if (utcl2)
    return set(IhAction::VmFault, "UTCL2 fault: read the GC fault status and "
                                  "GCVM_L2_PROTECTION_FAULT_ADDR_LO32/HI32, then clear them");
  if (v.source_name == "SQ_INTERRUPT_ID") {
    const unsigned enc = soc == IhSoc::Soc21 ? (e.context[1] >> 6) & 3 : (e.context[0] >> 26) & 3;
    v.sq_encoding = enc;
    if (enc != 2) return set(IhAction::Ignore, fmt::format("SQ message, encoding {}", enc));
    if (soc == IhSoc::Soc21) {
      v.sq_error_type = (e.context[0] >> 21) & 0xF;
      return set(IhAction::SqError,
                 fmt::format("SQ error, type {} ({}), ctx0 0x{:08X}", *v.sq_error_type,
                             sq_error_type_name(*v.sq_error_type), e.context[0]));
    }
    // SOC15: the error type is bits 20..23 of a value AM assembles from ctx0 and ctx1; the spec
    // does not say how (am-driver.md §11), so it is left unset rather than guessed.
    return set(IhAction::SqError,
               fmt::format("SQ error, type not decoded on SOC15, ctx0 0x{:08X} ctx1 0x{:08X}",
                           e.context[0], e.context[1]));
  }
  // AM ignores the names SDMA_TRAP and CP_EOP_INTR; the real EOP source is CP_EOP_INTERRUPT
  // (181), which AM would flag, and libhw ignores explicitly (§11 quirk).
  if (v.source_name == "SDMA_TRAP" || v.source_name == "CP_EOP_INTERRUPT")
    return set(IhAction::Ignore, "ignored");
  return set(IhAction::Unexpected, "unexpected source: error state");
}

}  // namespace wavescope::hw::am
