#include "sim/am/ih_writer.hpp"

#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::sim::am {

namespace {
constexpr unsigned kClientGfx = 10, kClientSe0Sh = 10, kClientGrbmCp = 20, kClientUtcl2 = 27,
                   kClientSdma0 = 8;
constexpr unsigned kSrcSq = 239, kSrcUtcl2Fault = 0, kSrcEop = 181, kSrcSdmaTrapSoc21 = 49,
                   kSrcSdmaTrapSoc15 = 224;

void write_dword(hw::am::VramAccess &vram, std::uint64_t paddr, std::uint32_t value) {
  const std::uint64_t at = paddr & ~7ull;
  std::uint64_t word = vram.read64(at);
  if (paddr & 4)
    word = (word & 0xFFFF'FFFFull) | std::uint64_t{value} << 32;
  else
    word = (word & ~0xFFFF'FFFFull) | value;
  vram.write64(at, word);
}
}  // namespace

bool ih_push(IhRingState &ring, std::uint32_t rptr_dwords, hw::am::VramAccess &vram,
             const IhDwords &entry) {
  if (!ring.enabled || ring.size_dwords < 8) return false;
  const std::uint32_t next = (ring.wptr + 8) % ring.size_dwords;
  if (next == rptr_dwords % ring.size_dwords) {
    // Full. With WPTR_OVERFLOW_ENABLE the IH latches RB_OVERFLOW and overwrites the oldest entry
    // (the kernel then restarts after wptr); without it the entry is dropped.
    if (!ring.overflow_enable) {
      ++ring.dropped;
      return false;
    }
    ring.overflow = true;
  }
  for (unsigned i = 0; i < 8; ++i)
    write_dword(vram, ring.base_paddr + std::uint64_t{(ring.wptr + i) % ring.size_dwords} * 4,
                entry[i]);
  ring.wptr = next;
  ++ring.written;
  if (ring.wptr_writeback_paddr)
    write_dword(vram, *ring.wptr_writeback_paddr, ring.wptr_register());
  return true;
}

IhDwords ih_entry_dwords(unsigned client, unsigned source, std::uint32_t ctx0, std::uint32_t ctx1,
                         unsigned ring_id, unsigned vmid) {
  return {(client & 0xFFu) | (source & 0xFFu) << 8 | (ring_id & 0xFFu) << 16 | (vmid & 0xFu) << 24,
          0,
          0,
          0,
          ctx0,
          ctx1,
          0,
          0};
}

IhDwords ih_sq_error_entry(hw::am::IhSoc soc, unsigned type) {
  if (soc == hw::am::IhSoc::Soc21)
    return ih_entry_dwords(kClientGfx, kSrcSq, (type & 0xFu) << 21, 2u << 6);
  return ih_entry_dwords(kClientSe0Sh, kSrcSq, 2u << 26 | (type & 0xFu) << 20);
}

IhDwords ih_utcl2_fault_entry(hw::am::IhSoc soc, unsigned vmid) {
  return ih_entry_dwords(soc == hw::am::IhSoc::Soc21 ? kClientGrbmCp : kClientUtcl2, kSrcUtcl2Fault,
                         0, 0, 0, vmid);
}

IhDwords ih_eop_entry(hw::am::IhSoc, std::uint32_t context) {
  return ih_entry_dwords(kClientGrbmCp, kSrcEop, context);
}

IhDwords ih_sdma_trap_entry(hw::am::IhSoc soc, std::uint32_t context) {
  if (soc == hw::am::IhSoc::Soc21) return ih_entry_dwords(kClientGfx, kSrcSdmaTrapSoc21, context);
  return ih_entry_dwords(kClientSdma0, kSrcSdmaTrapSoc15, context);
}

}  // namespace wavescope::hw::sim::am
