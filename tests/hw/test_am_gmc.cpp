// The GMC's register sequences (am-driver.md §7.1, §7.5, §7.6, §8) against a register bus stub:
// the [run] values on the RDNA4 mock, the gfx11 and gfx9.4.3 differences, every hub instance,
// the invalidate handshake order and its timeouts.

#include <catch2/catch.hpp>

#include "support_am/am_chip_fixture.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/gmc.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using wavescope::test::AmChipFixture;

namespace {
void boot_gmc(GmcBlock &gmc) {
  gmc.read_apertures();
  gmc.set_boot_pages({0x0, 0x1000, 0x2000});
}
}  // namespace

TEST_CASE("am gmc: §7.5 [run] values of init_hub on the RDNA4 mock") {
  AmChipFixture f("tinygrad-mock");
  f.reads("mmhub.MMMC_VM_FB_LOCATION_TOP", 0x20);  // 512 MiB >> 24, as the mock answers
  GmcBlock gmc(f.regs, f.chip);
  boot_gmc(gmc);
  CHECK(gmc.apertures().fb_base == 0);
  CHECK(gmc.apertures().fb_end == 0x2000'0000);
  CHECK(gmc.apertures().mc_base == 0);
  CHECK(!gmc.apertures().is_hive());
  CHECK(gmc.hub_initialised(VmHub::Mm));
  CHECK(!gmc.hub_initialised(VmHub::Gc));
  for (VmHub hub : {VmHub::Mm, VmHub::Gc}) {
    gmc.init_hub(hub);
    const std::string p = hub == VmHub::Mm ? "mmhub.MM" : "gc.GC";
    INFO(p);
    CHECK(f.last(p + "MC_VM_AGP_BOT") == 0xFF'FFFFu);
    CHECK(f.last(p + "MC_VM_MX_L1_TLB_CNTL") == 0x1859u);
    CHECK(f.last(p + "VM_L2_CNTL") == 0x8'0801u);
    CHECK(f.last(p + "VM_L2_CNTL2") == 0x3u);
    CHECK(f.last(p + "VM_L2_CNTL3") == 0x8013'0009u);
    CHECK(f.last(p + "VM_L2_CNTL4") == 0x1u);
    CHECK(f.last(p + "VM_L2_CNTL5") == 0x3FE0u);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32") == 0u);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32") == 2u);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32") == 0xFFFF'FFFFu);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32") == 7u);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32") == 1u);
    CHECK(f.last(p + "VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32") == 0u);
    CHECK(f.last(p + "VM_CONTEXT0_CNTL") == 0x1FF'FC07u);
    CHECK(f.last(p + "MC_VM_SYSTEM_APERTURE_LOW_ADDR") == 0u);
    CHECK(f.last(p + "MC_VM_SYSTEM_APERTURE_HIGH_ADDR") == 0x800u);
    CHECK(f.last(p + "MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB") == 1u);
    CHECK(f.last(p + "VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32") == 2u);
    CHECK(f.last(p + "VM_L2_PROTECTION_FAULT_CNTL2").has_value());
    CHECK(f.last(p + "VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_LO32") == 0xFFFF'FFFFu);
    CHECK(f.last(p + "VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_HI32") == 0xFu);
    CHECK(f.last(p + "VM_INVALIDATE_ENG0_ADDR_RANGE_HI32") == 0x1Fu);
    CHECK(f.last(p + "VM_INVALIDATE_ENG17_ADDR_RANGE_LO32") == 0xFFFF'FFFFu);
  }
  CHECK(gmc.hub_initialised(VmHub::Gc));
}

TEST_CASE("am gmc: gfx11 and gfx9.4.3 CONTEXT0_CNTL and L2_CNTL3, on every instance") {
  AmChipFixture navi("navi31");
  GmcBlock gmc11(navi.regs, navi.chip);
  boot_gmc(gmc11);
  gmc11.init_hub(VmHub::Gc);
  CHECK(navi.last("gc.GCVM_CONTEXT0_CNTL") == 0x1FF'FE07u);
  CHECK(navi.last("gc.GCVM_L2_CNTL3") == 0x8013'0009u);

  AmChipFixture mi("mi300x", wavescope::test::distinct_xcc_bases);
  REQUIRE(mi.chip.xccs == 8);
  REQUIRE(mi.chip.mmhubs == 4);
  GmcBlock gmc9(mi.regs, mi.chip);
  boot_gmc(gmc9);
  gmc9.init_hub(VmHub::Gc);
  gmc9.init_hub(VmHub::Mm);
  for (unsigned xcc = 0; xcc < 8; ++xcc) {
    CHECK(mi.last("gc.GCVM_CONTEXT0_CNTL", xcc) == 0x1FF'FE4Du);
    CHECK(mi.last("gc.GCVM_L2_CNTL3", xcc) == 0x8014'800Cu);
    CHECK(mi.bus.writes_to(mi.addr("gc.GCVM_L2_CNTL5", xcc)).empty());  // GC < 10: no CNTL5
  }
  for (unsigned aid = 0; aid < 4; ++aid)
    CHECK(mi.last("mmhub.MMVM_CONTEXT0_CNTL", aid) == 0x1FF'FE4Du);
}

TEST_CASE("am gmc: XGMI apertures make the XGMI and MC bases") {
  AmChipFixture mi("mi300x", wavescope::test::distinct_xcc_bases);
  // Node 2 of a 4-region hive with 64 GiB segments; FB at 0x80_0000_0000.
  const auto &cntl = mi.regs.reg("mmhub.MMMC_VM_XGMI_LFB_CNTL");
  (void)cntl;
  mi.reads(
      "mmhub.MMMC_VM_XGMI_LFB_CNTL",
      mi.regs.encode("mmhub.MMMC_VM_XGMI_LFB_CNTL", {{"PF_LFB_REGION", 2}, {"PF_MAX_REGION", 3}}));
  mi.reads("mmhub.MMMC_VM_XGMI_LFB_SIZE",
           mi.regs.encode("mmhub.MMMC_VM_XGMI_LFB_SIZE", {{"PF_LFB_SIZE", 0x1000}}));
  mi.reads("mmhub.MMMC_VM_FB_LOCATION_BASE", 0x8000);
  GmcBlock gmc(mi.regs, mi.chip);
  const auto &a = gmc.read_apertures();
  CHECK(a.xgmi_segment_size == 0x10'0000'0000);
  CHECK(a.paddr_base == 0x20'0000'0000);
  CHECK(a.fb_base == 0x80'0000'0000);
  CHECK(a.mc_base == 0xA0'0000'0000);
  CHECK(a.is_hive());
  CHECK(gmc.paddr_to_mc(0x1000) == 0xA0'0000'1000);
  CHECK(gmc.paddr_to_xgmi(0x1000) == 0x20'0000'1000);
  gmc.set_boot_pages({0x0, 0x1000, 0x2000});
  gmc.init_hub(VmHub::Gc);
  CHECK(mi.last("gc.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32") == 1u);
  CHECK(mi.last("gc.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32") == 0x20u);
  CHECK(mi.last("gc.GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB") == 0x200'0001u);
}

TEST_CASE("am gmc: §7.6 flush_tlb: HDP flush, semaphore, request, ack, release") {
  AmChipFixture f("tinygrad-mock");
  f.reads("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL", 0x5480);  // HDP flush register at 0x1520
  f.reads("mmhub.MMVM_INVALIDATE_ENG17_SEM", 1);
  f.reads("mmhub.MMVM_INVALIDATE_ENG17_ACK", 1);
  f.reads("gc.GCVM_INVALIDATE_ENG17_ACK", 1);
  GmcBlock gmc(f.regs, f.chip);
  boot_gmc(gmc);

  // GC is not initialised yet: only the HDP flush.
  gmc.flush_tlb(VmHub::Gc);
  CHECK(f.bus.writes_to(0x1520) == std::vector<std::uint32_t>{0});
  CHECK(f.bus.writes_to(f.addr("gc.GCVM_INVALIDATE_ENG17_REQ")).empty());

  f.bus.trace.clear();
  gmc.flush_tlb(VmHub::Mm);
  const long hdp = f.bus.index_of_write(0x1520);
  const long req = f.bus.index_of_write(f.addr("mmhub.MMVM_INVALIDATE_ENG17_REQ"));
  const long release = f.bus.index_of_write(f.addr("mmhub.MMVM_INVALIDATE_ENG17_SEM"));
  const long cid2 = f.bus.index_of_write(f.addr("mmhub.MMVM_L2_BANK_SELECT_RESERVED_CID2"));
  REQUIRE(hdp >= 0);
  CHECK(hdp < req);
  CHECK(req < release);
  CHECK(release < cid2);
  CHECK(f.last("mmhub.MMVM_INVALIDATE_ENG17_REQ") == 0xF8'0001u);
  CHECK(f.last("mmhub.MMVM_INVALIDATE_ENG17_SEM") == 0u);
  CHECK(f.last("mmhub.MMVM_L2_BANK_SELECT_RESERVED_CID2").has_value());
  // The semaphore is read before the request, the ack after it, CID2 read back at the end.
  std::vector<std::uint64_t> reads;
  for (const auto &a : f.bus.trace)
    if (!a.write) reads.push_back(a.address);
  CHECK(reads == std::vector<std::uint64_t>{f.addr("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL"),
                                            f.addr("mmhub.MMVM_INVALIDATE_ENG17_SEM"),
                                            f.addr("mmhub.MMVM_INVALIDATE_ENG17_ACK"),
                                            f.addr("mmhub.MMVM_L2_BANK_SELECT_RESERVED_CID2"),
                                            f.addr("mmhub.MMVM_L2_BANK_SELECT_RESERVED_CID2")});

  gmc.init_hub(VmHub::Gc);
  gmc.flush_tlb(VmHub::Gc, 0);
  CHECK(f.last("gc.GCVM_INVALIDATE_ENG17_REQ") == 0xF8'0001u);
  f.reads("gc.GCVM_INVALIDATE_ENG17_ACK", 1u << 3);
  gmc.flush_tlb(VmHub::Gc, 3);
  CHECK(f.last("gc.GCVM_INVALIDATE_ENG17_REQ") == 0xF8'0008u);
  CHECK_THROWS_WITH(gmc.flush_tlb(VmHub::Gc, 16), Contains("VMID 16"));
}

TEST_CASE("am gmc: gfx9.4.3 REQ value and flushes on every XCC") {
  AmChipFixture mi("mi300x", wavescope::test::distinct_xcc_bases);
  for (unsigned xcc = 0; xcc < 8; ++xcc) mi.reads("gc.GCVM_INVALIDATE_ENG17_ACK", 1, xcc);
  GmcBlock gmc(mi.regs, mi.chip);
  boot_gmc(gmc);
  gmc.init_hub(VmHub::Gc);
  gmc.flush_tlb(VmHub::Gc);
  for (unsigned xcc = 0; xcc < 8; ++xcc)
    CHECK(mi.last("gc.GCVM_INVALIDATE_ENG17_REQ", xcc) == 0x7C'0001u);
}

TEST_CASE("am gmc: invalidate timeouts name the register") {
  AmChipFixture f("tinygrad-mock");
  GmcBlock gmc(f.regs, f.chip);
  boot_gmc(gmc);
  // The semaphore never reads 1.
  CHECK_THROWS_WITH(gmc.flush_tlb(VmHub::Mm), Contains("mm flush_tlb timeout") &&
                                                  Contains("MMVM_INVALIDATE_ENG17_SEM") &&
                                                  Contains("10000 ms"));
  f.reads("mmhub.MMVM_INVALIDATE_ENG17_SEM", 1);
  try {
    gmc.flush_tlb(VmHub::Mm);
    FAIL("no timeout");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::Timeout);
    CHECK_THAT(e.what(), Contains("flush_tlb timeout") && Contains("ENG17_ACK"));
  }
}

TEST_CASE("am gmc: the fault registers of the IH fault path") {
  AmChipFixture f("tinygrad-mock");
  GmcBlock gmc(f.regs, f.chip);
  CHECK(std::string(gmc.fault_status_register()) == "gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32");
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32", 0x1234);
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_ADDR_LO32", 0x2000'0123);
  f.reads("gc.GCVM_L2_PROTECTION_FAULT_ADDR_HI32", 0x0);
  const auto fault = gmc.read_gc_fault();
  CHECK(fault.status == 0x1234);
  CHECK(fault.va() == 0x2'0000'1230'00);
  gmc.clear_gc_fault();
  const auto &cntl = f.regs.reg("gc.GCVM_L2_PROTECTION_FAULT_CNTL");
  CHECK(f.last("gc.GCVM_L2_PROTECTION_FAULT_CNTL") ==
        static_cast<std::uint32_t>(cntl.field("CLEAR_PROTECTION_FAULT_STATUS_ADDR")->mask()));
  AmChipFixture navi("navi31");
  CHECK(std::string(GmcBlock(navi.regs, navi.chip).fault_status_register()) ==
        "gc.GCVM_L2_PROTECTION_FAULT_STATUS");
}
