// The fake IH's ring writer (am-driver.md §11, §19.2 item 7): entries at the write pointer, the
// write-back page, wrap and overflow with and without WPTR_OVERFLOW_ENABLE, and the scripted
// entries read back by the driver's decoder to the verdicts of §19.3.

#include <catch2/catch.hpp>

#include "sim/am/ih_writer.hpp"
#include "wavescope/hw/am/ih_entry.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"

using namespace wavescope::hw::am;
using namespace wavescope::hw::sim::am;

namespace {
std::uint32_t dword(const SimulatedVram &vram, std::uint64_t paddr) {
  const auto w = vram.read64(paddr & ~7ull);
  return static_cast<std::uint32_t>(paddr & 4 ? w >> 32 : w);
}
IhRingState small_ring() {
  IhRingState r;
  r.enabled = true;
  r.overflow_enable = true;
  r.base_paddr = 0x3000;
  r.size_dwords = 32;  // four entries
  r.wptr_writeback_paddr = 0x43000;
  return r;
}
}  // namespace

TEST_CASE("am sim ih: entries at the wptr, write-back, wrap") {
  SimulatedVram vram(0x10'0000);
  auto ring = small_ring();
  CHECK(ih_push(ring, 0, vram, ih_entry_dwords(20, 181, 0x55)));
  CHECK(dword(vram, 0x3000) == 0xB514);
  CHECK(dword(vram, 0x3010) == 0x55);
  CHECK(ring.wptr == 8);
  CHECK(dword(vram, 0x43000) == 8u << 2);
  CHECK(ring.wptr_register() == 0x20);
  // Fill up to one short of the rptr (the ring holds 3 entries with rptr 0).
  CHECK(ih_push(ring, 0, vram, ih_entry_dwords(20, 1)));
  CHECK(ih_push(ring, 0, vram, ih_entry_dwords(20, 2)));
  CHECK(ring.wptr == 24);
  // Full: overflow latched and the oldest slot overwritten; wptr catches up with rptr.
  CHECK(ih_push(ring, 0, vram, ih_entry_dwords(20, 3)));
  CHECK(ring.overflow);
  CHECK(ring.wptr == 0);
  CHECK(ring.wptr_register() == 0x1);
  CHECK(dword(vram, 0x43000) == 1);
  // Without overflow enable, a full ring drops the entry.
  auto strict = small_ring();
  strict.overflow_enable = false;
  strict.wptr = 24;
  CHECK(!ih_push(strict, 0, vram, ih_entry_dwords(20, 3)));
  CHECK(strict.dropped == 1);
  CHECK(!strict.overflow);
  // A disabled ring writes nothing.
  IhRingState off;
  CHECK(!ih_push(off, 0, vram, ih_entry_dwords(20, 3)));
}

TEST_CASE("am sim ih: scripted entries decode to the §19.3 verdicts") {
  const auto sq = decode_ih_entry(ih_sq_error_entry(IhSoc::Soc21, 1));
  CHECK(sq.dwords[0] == 0xEF0A);
  CHECK(sq.context[1] == 0x80);
  const auto v = ih_verdict(IhSoc::Soc21, sq);
  CHECK(v.action == IhAction::SqError);
  CHECK(v.sq_error_type == 1u);
  const auto fault = decode_ih_entry(ih_utcl2_fault_entry(IhSoc::Soc21));
  CHECK(fault.dwords[0] == 0x14);
  CHECK(ih_verdict(IhSoc::Soc21, fault).action == IhAction::VmFault);
  CHECK(ih_verdict(IhSoc::Soc15, decode_ih_entry(ih_utcl2_fault_entry(IhSoc::Soc15))).action ==
        IhAction::VmFault);
  CHECK(ih_verdict(IhSoc::Soc15, decode_ih_entry(ih_sq_error_entry(IhSoc::Soc15, 2))).action ==
        IhAction::SqError);
  for (IhSoc soc : {IhSoc::Soc15, IhSoc::Soc21}) {
    CHECK(ih_verdict(soc, decode_ih_entry(ih_eop_entry(soc, 3))).action == IhAction::Ignore);
    const auto trap = ih_verdict(soc, decode_ih_entry(ih_sdma_trap_entry(soc, 3)));
    CHECK(trap.action == IhAction::Ignore);
    CHECK(trap.source_name == "SDMA_TRAP");
  }
}
