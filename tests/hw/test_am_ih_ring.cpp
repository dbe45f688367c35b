// The IH block (am-driver.md §11): ring programming with the [run] values on the RDNA4 mock, the
// handler over entries in simulated VRAM (the §19.3 IH decode path: an SQ error, a UTCL2 fault
// that reads and clears the GC fault registers), the drain with overflow, and the RAS check.

#include <catch2/catch.hpp>

#include "support_am/am_chip_fixture.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/ih_report.hpp"
#include "wavescope/hw/am/ih_ring.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using wavescope::test::AmChipFixture;

namespace {
const IhRings kMockRings{0x3000, 0x43000, 0x44000, 0x84000};  // §5.5 rows 4-7

struct IhFixture {
  IhFixture() : f("tinygrad-mock"), vram(512ull << 20), gmc(f.regs, f.chip) {
    gmc.read_apertures();
  }
  void put_entry(std::uint32_t dword_index, const std::array<std::uint32_t, 8> &d) {
    for (unsigned i = 0; i < 8; i += 2)
      vram.write64(kMockRings.ring0 + (dword_index + i) * 4ull,
                   std::uint64_t{d[i]} | std::uint64_t{d[i + 1]} << 32);
  }
  AmChipFixture f;
  SimulatedVram vram;
  GmcBlock gmc;
};
}  // namespace

TEST_CASE("am ih: §11 [run] ring programming on the RDNA4 mock") {
  IhFixture t;
  IhBlock ih(t.f.regs, t.vram, t.gmc, t.f.chip, kMockRings);
  ih.init_hw();
  auto &f = t.f;
  CHECK(f.addr("osssys.IH_RB_CNTL") == 0x1120);
  CHECK(f.addr("osssys.IH_RB_BASE") == 0x1123);
  CHECK(f.bus.writes_to(f.addr("osssys.IH_RB_CNTL")) ==
        std::vector<std::uint32_t>{0xC031'0020, 0xC033'0021});
  CHECK(f.bus.writes_to(f.addr("osssys.IH_RB_CNTL_RING1")) ==
        std::vector<std::uint32_t>{0xC010'0220, 0xC010'0221});
  CHECK(f.last("osssys.IH_RB_BASE") == 0x30u);
  CHECK(f.last("osssys.IH_RB_BASE_HI") == 0u);
  CHECK(f.last("osssys.IH_RB_BASE_RING1") == 0x440u);
  CHECK(f.last("osssys.IH_RB_WPTR_ADDR_LO") == 0x43000u);
  CHECK(f.last("osssys.IH_RB_WPTR_ADDR_HI") == 0u);
  CHECK(f.last("osssys.IH_RB_RPTR") == 0u);
  CHECK(f.last("osssys.IH_RB_WPTR_RING1") == 0u);
  CHECK(f.last("osssys.IH_DOORBELL_RPTR") == 0u);
  CHECK(f.last("osssys.IH_STORM_CLIENT_LIST_CNTL") == 1u << 18);
  CHECK(f.last("osssys.IH_MSI_STORM_CTRL").has_value());
  CHECK(f.last("osssys.IH_INT_FLOOD_CNTL").has_value());
  // The ring 0 write-back page has no RING1 twin.
  CHECK(!f.regs.has("osssys.IH_RB_WPTR_ADDR_LO_RING1"));
}

TEST_CASE("am ih: OSSSYS 4.4.2 skips the storm and flood controls") {
  AmChipFixture mi("mi300x");
  SimulatedVram vram(64ull << 20);
  GmcBlock gmc(mi.regs, mi.chip);
  IhBlock ih(mi.regs, vram, gmc, mi.chip, kMockRings);
  ih.init_hw();
  CHECK(!mi.last("osssys.IH_STORM_CLIENT_LIST_CNTL").has_value());
  CHECK(mi.bus.writes_to(mi.addr("osssys.IH_RB_CNTL")) ==
        std::vector<std::uint32_t>{0xC031'0020, 0xC033'0021});
  CHECK(ih.soc() == IhSoc::Soc15);
}

TEST_CASE("am ih: §19.3 IH decode path through the handler") {
  IhFixture t;
  auto &f = t.f;
  IhBlock ih(f.regs, t.vram, t.gmc, f.chip, kMockRings);
  REQUIRE(ih.soc() == IhSoc::Soc21);
  // An SQ error (client GFX 10, source 239, encoding 2 in ctx1, MEMVIOL in ctx0 bits 21..24) and
  // a UTCL2 fault from GRBM_CP, then an EOP (ignored).
  t.put_entry(0, {0x0000'EF0A, 0, 0, 0, 2u << 21, 0x80, 0, 0});
  t.put_entry(8, {0x0000'0014, 0, 0, 0, 0, 0, 0, 0});
  t.put_entry(16, {0x0000'B50A, 0, 0, 0, 0, 0, 0, 0});
  f.reads("osssys.IH_RB_WPTR", 24 * 4);  // OFFSET (bits 2..17) = 24 dwords
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32", 0x0004'0B51);
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_ADDR_LO32", 0x2000'0042);
  const IhReport r = ih.interrupt_handler();
  CHECK(r.rptr == 0);
  CHECK(r.wptr == 24);
  REQUIRE(r.entries.size() == 3);
  CHECK(r.entries[0].verdict.action == IhAction::SqError);
  CHECK(r.entries[0].verdict.sq_error_type == 2u);
  CHECK(!r.entries[0].fault);
  CHECK(r.entries[1].rptr == 8);
  CHECK(r.entries[1].verdict.action == IhAction::VmFault);
  REQUIRE(r.entries[1].fault);
  CHECK(r.entries[1].fault->status == 0x0004'0B51);
  CHECK(r.entries[1].fault->va() == 0x2000'0042'000);
  CHECK(r.entries[2].verdict.action == IhAction::Ignore);
  CHECK(r.error_state);
  CHECK(!r.overflow);
  // The fault path read status, then address, then cleared.
  const auto clear = f.bus.index_of_write(f.addr("gc.GCVM_L2_PROTECTION_FAULT_CNTL"));
  REQUIRE(clear >= 0);
  long status_read = -1;
  for (std::size_t i = 0; i < f.bus.trace.size(); ++i)
    if (!f.bus.trace[i].write &&
        f.bus.trace[i].address == f.addr("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32"))
      status_read = static_cast<long>(i);
  CHECK(status_read >= 0);
  CHECK(status_read < clear);
  // The drain wrote RPTR = 24 (the dword index, as AM does).
  CHECK(f.last("osssys.IH_RB_RPTR") == 24u);
}

TEST_CASE("am ih: an EOP-only ring leaves AM out of its error state, wraps, drains") {
  IhFixture t;
  auto &f = t.f;
  IhBlock ih(f.regs, t.vram, t.gmc, f.chip, kMockRings);
  // rptr near the end: the entry at the last slot, then one at 0.
  const std::uint32_t last = kIhRingDwords - 8;
  t.put_entry(last, {0x0000'B50A, 0, 0, 0, 0, 0, 0, 0});
  t.put_entry(0, {0x0000'3114, 0, 0, 0, 0, 0, 0, 0});  // source 0x31 SDMA_TRAP, GRBM_CP
  f.bus.values[f.addr("osssys.IH_RB_RPTR")] = last;
  f.reads("osssys.IH_RB_WPTR", 8 * 4);
  const auto r = ih.interrupt_handler();
  REQUIRE(r.entries.size() == 2);
  CHECK(r.entries[0].rptr == last);
  CHECK(r.entries[1].rptr == 0);
  CHECK(!r.error_state);
  CHECK(f.last("osssys.IH_RB_RPTR") == 8u);
}

TEST_CASE("am ih: overflow is cleared by the drain, RAS status by the handler") {
  IhFixture t;
  auto &f = t.f;
  IhBlock ih(f.regs, t.vram, t.gmc, f.chip, kMockRings);
  f.bus.values[f.addr("osssys.IH_RB_WPTR")] = 0x1;  // RB_OVERFLOW, offset 0
  f.bus.values[f.addr("osssys.IH_RB_CNTL")] = 0xC033'0021;
  f.reads("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL", 0x6);  // RAS controller and ATHUB
  const auto r = ih.interrupt_handler();
  CHECK(r.overflow);
  CHECK(r.entries.empty());
  CHECK(f.last("osssys.IH_RB_WPTR") == 0u);
  CHECK(f.bus.writes_to(f.addr("osssys.IH_RB_CNTL")) ==
        std::vector<std::uint32_t>{0xC033'0021, 0x4033'0021});
  CHECK(r.ras_cntlr);
  CHECK(r.ras_athub);
  CHECK(r.error_state);
  CHECK(f.last("nbio.BIF_BX0_BIF_DOORBELL_INT_CNTL") == ((1u << 17) | (1u << 18)));
}

TEST_CASE("am ih: a pointer that is not an entry index is a device error") {
  IhFixture t;
  auto &f = t.f;
  IhBlock ih(f.regs, t.vram, t.gmc, f.chip, kMockRings);
  f.reads("osssys.IH_RB_WPTR", 12);  // 3 dwords
  CHECK_THROWS_WITH(ih.interrupt_handler(), Contains("wptr 0x3"));
}

TEST_CASE("am ih: the report's printers") {
  IhFixture t;
  auto &f = t.f;
  IhBlock ih(f.regs, t.vram, t.gmc, f.chip, kMockRings);
  t.put_entry(0, {0x0000'EF0A, 0, 0, 0, 1u << 21, 0x80, 0, 0});
  t.put_entry(8, {0x0000'0014, 0, 0, 0, 0, 0, 0, 0});
  f.reads("osssys.IH_RB_WPTR", 16 * 4);
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32", 0x301);
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_ADDR_LO32", 0x2000'0004);
  const auto r = ih.interrupt_handler();
  const std::string json = to_json(r);
  CHECK_THAT(json, Contains(R"("action":"sq-error")") && Contains(R"("sq_error":"ILLEGAL_INST")") &&
                       Contains(R"("va":"0x20000004000")") && Contains(R"("error_state":true)") &&
                       Contains(R"("wptr":16)"));
  CHECK(json.find('\n') == std::string::npos);
  const std::string text = to_text(r);
  CHECK_THAT(text,
             Contains("rptr 0x0 -> wptr 0x10 (dwords), 2 entries") &&
                 Contains("SQ error: ILLEGAL_INST") &&
                 Contains("GCVM_L2_PROTECTION_FAULT_STATUS 0x00000301, address 0x20000004000") &&
                 Contains("error state: yes"));
}
