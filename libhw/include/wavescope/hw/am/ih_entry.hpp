#pragma once
// Interrupt-handler ring entries (am-driver.md §11): decoding the 8-dword entry and the verdict
// AM's handler reaches on it. Pure: the register reads the fault path asks for (fault status and
// address, then the clear) are the caller's.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wavescope::hw::am {

// SOC15: gfx9 parts (MI300/MI350); SOC21: gfx11 and gfx12.
enum class IhSoc { Soc15, Soc21 };

struct IhEntry {
  std::uint8_t client_id = 0, source_id = 0, ring_id = 0, vmid = 0;
  bool vmid_type = false;
  std::uint16_t pasid = 0;
  std::uint8_t node_id = 0;
  std::uint32_t context[4] = {};  // ctx0..ctx3 = d4..d7
  std::uint32_t dwords[8] = {};
};

// Exactly 8 dwords, else Error(BadInput) naming the count.
IhEntry decode_ih_entry(std::span<const std::uint32_t> dwords);
// The entries from dword `rptr` up to `wptr` of a ring (both dword indices, multiples of 8, below
// the ring's size; wrapping around the end). Bad pointers: Error(BadInput) with both in hex.
std::vector<IhEntry> ih_ring_entries(std::span<const std::uint32_t> ring, std::uint32_t rptr,
                                     std::uint32_t wptr);

// The source's name as AM looks it up, per client: SOC21 clients GRBM_CP (20) and GFX (10) use
// irqsrcs_gfx_11_0_0; SOC15 clients GRBM_CP and SE0SH..SE3SH use irqsrcs_gfx_9_0, SDMA0..7 use
// irqsrcs_sdma0_4_0. "" for any other client or an id the table lacks.
std::string ih_source_name(IhSoc soc, unsigned client_id, unsigned source_id);

inline constexpr unsigned kIhSrcUtcl2Fault = 0, kIhSrcCpEopInterrupt = 181, kIhSrcSqInterrupt = 239;
inline constexpr unsigned kIhClientUtcl2Soc15 = 27;

enum class IhAction {
  Ignore,      // SDMA_TRAP, CP_EOP_INTERRUPT (181), or an SQ message that is not an error
  SqError,     // SQ_INTERRUPT_ID with encoding 2: error state
  VmFault,     // UTCL2 fault: read the GC fault status and address, clear them, error state
  Unexpected,  // any other source: error state
};
const char *ih_action_name(IhAction action);

struct IhVerdict {
  IhAction action = IhAction::Unexpected;
  bool error_state = false;
  std::string source_name;                // "" when the tables do not know the id
  std::optional<unsigned> sq_encoding;    // SQ_INTERRUPT_ID only
  std::optional<unsigned> sq_error_type;  // SOC21 SQ errors only (SOC15: open, see .cpp)
  std::string message;                    // one line naming client, source and the decision
};

IhVerdict ih_verdict(IhSoc soc, const IhEntry &entry);
// 0 EDC_FUE, 1 ILLEGAL_INST, 2 MEMVIOL, 3 EDC_FED, else "UNKNOWN".
const char *sq_error_type_name(unsigned type);
// The faulting VA from GCVM_L2_PROTECTION_FAULT_ADDR_LO32/HI32 (a page number).
inline std::uint64_t vm_fault_address(std::uint32_t lo32, std::uint32_t hi32) {
  return ((std::uint64_t{hi32} << 32) | lo32) << 12;
}

}  // namespace wavescope::hw::am
