// The SDMA block and doorbell routing (am-driver.md §12.2, §12.6, §12.7, §14.1) against a register
// bus stub: [run] values on the RDNA4 mock, SDMA 6 on Navi31, SDMA 4.4.2 on MI300X with NBIO 7.9
// routing through PCIE INDEX2, queue programming order and fini.

#include <catch2/catch.hpp>

#include <algorithm>

#include "support_am/am_chip_fixture.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/doorbell_routing.hpp"
#include "wavescope/hw/am/hdp.hpp"
#include "wavescope/hw/am/sdma.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using wavescope::test::AmChipFixture;

namespace {
SdmaRing rdna4_ring() {
  SdmaRing r;
  r.ring_va = 0x2000'0010'0000;
  r.ring_bytes = 1 << 20;
  r.rptr_va = 0x2000'0000'0040;
  r.wptr_va = 0x2000'0000'0048;
  return r;
}
}  // namespace

TEST_CASE("am sdma: §12.6 [run] init values on the RDNA4 mock (SDMA 7)") {
  AmChipFixture f("tinygrad-mock");
  SdmaBlock sdma(f.regs, f.chip);
  sdma.init_hw();
  CHECK(f.last("gc.SDMA0_WATCHDOG_CNTL") == 0x64u);
  CHECK(f.last("gc.SDMA0_UTCL1_CNTL") == 0x609u);
  CHECK(f.last("gc.SDMA0_UTCL1_PAGE") == 0xE000u);
  CHECK(f.last("gc.SDMA0_MCU_CNTL").has_value());
  CHECK(f.last("gc.SDMA0_CNTL").has_value());
  CHECK(f.last("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_2_CTRL") == 0x3009'001Du);
}

TEST_CASE("am sdma: §12.7 [run] queue setup on the RDNA4 mock, in order") {
  AmChipFixture f("tinygrad-mock");
  SdmaBlock sdma(f.regs, f.chip);
  CHECK(f.addr("gc.SDMA0_QUEUE0_RB_CNTL") == 0x12E0);
  CHECK(sdma.setup_ring(rdna4_ring()) == 0x100);
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_BASE") == 0x1000u);
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_BASE_HI") == 0x20u);
  CHECK(f.last("gc.SDMA0_QUEUE0_DOORBELL_OFFSET") == 0x800u);
  CHECK(f.last("gc.SDMA0_QUEUE0_DOORBELL") == 0x1000'0000u);
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_CNTL") == 0x84'1825u);
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_RPTR_ADDR_LO") == 0x40u);
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI") == 0x2000u);
  CHECK(f.last("gc.SDMA0_QUEUE0_IB_CNTL") == 1u);
  CHECK(f.bus.writes_to(f.addr("gc.SDMA0_QUEUE0_MINOR_PTR_UPDATE")) ==
        std::vector<std::uint32_t>{1, 0});
  // Order: MINOR_PTR_UPDATE 1 first, pointers, base, addresses, doorbell, MINOR 0, RB_CNTL, IB.
  std::vector<std::string> order;
  const char *names[] = {"MINOR_PTR_UPDATE",
                         "RB_RPTR",
                         "RB_RPTR_HI",
                         "RB_WPTR",
                         "RB_WPTR_HI",
                         "RB_BASE",
                         "RB_BASE_HI",
                         "RB_RPTR_ADDR_LO",
                         "RB_RPTR_ADDR_HI",
                         "RB_WPTR_POLL_ADDR_LO",
                         "RB_WPTR_POLL_ADDR_HI",
                         "DOORBELL_OFFSET",
                         "DOORBELL",
                         "RB_CNTL",
                         "IB_CNTL"};
  for (const auto &a : f.bus.trace) {
    if (!a.write) continue;
    for (const char *n : names)
      if (a.address == f.addr(std::string("gc.SDMA0_QUEUE0_") + n)) order.push_back(n);
  }
  CHECK(order == std::vector<std::string>{"MINOR_PTR_UPDATE", "RB_RPTR", "RB_RPTR_HI", "RB_WPTR",
                                          "RB_WPTR_HI", "RB_BASE", "RB_BASE_HI", "RB_RPTR_ADDR_LO",
                                          "RB_RPTR_ADDR_HI", "RB_WPTR_POLL_ADDR_LO",
                                          "RB_WPTR_POLL_ADDR_HI", "DOORBELL_OFFSET", "DOORBELL",
                                          "MINOR_PTR_UPDATE", "RB_CNTL", "IB_CNTL"});
  auto second = rdna4_ring();
  second.idx = 1;
  CHECK_THROWS_WITH(sdma.setup_ring(second), Contains("SDMA queue 1 is not available"));
  auto odd = rdna4_ring();
  odd.ring_bytes = 0x3000;
  CHECK_THROWS_WITH(sdma.setup_ring(odd), Contains("0x3000"));
}

TEST_CASE("am sdma: fini turns the queue off and pulses the SDMA soft reset") {
  AmChipFixture f("tinygrad-mock");
  SdmaBlock sdma(f.regs, f.chip);
  sdma.setup_ring(rdna4_ring());
  sdma.fini();
  CHECK(f.last("gc.SDMA0_QUEUE0_RB_CNTL") == 0x84'1824u);
  CHECK(f.last("gc.SDMA0_QUEUE0_IB_CNTL") == 0u);
  CHECK(f.last("gc.SDMA0_QUEUE0_DOORBELL") == 0u);
  CHECK(f.last("gc.SDMA0_QUEUE0_DOORBELL_OFFSET") == 0u);
  const auto &sr = f.regs.reg("gc.GRBM_SOFT_RESET");
  CHECK(f.bus.writes_to(f.addr("gc.GRBM_SOFT_RESET")) ==
        std::vector<std::uint32_t>{static_cast<std::uint32_t>(sr.field("SOFT_RESET_SDMA0")->mask()),
                                   0});
}

TEST_CASE("am sdma: SDMA 6 on Navi31 runs the F32") {
  AmChipFixture f("navi31");
  SdmaBlock sdma(f.regs, f.chip);
  sdma.init_hw();
  CHECK(f.last("gc.SDMA0_F32_CNTL").has_value());
  const auto &page = f.regs.reg("gc.SDMA0_UTCL1_PAGE");
  CHECK((*f.last("gc.SDMA0_UTCL1_PAGE") & page.field("LLC_NOALLOC")->mask()) != 0);
  CHECK(f.last("nbio.S2A_DOORBELL_ENTRY_2_CTRL") == 0x3009'001Du);
  sdma.setup_ring(rdna4_ring());
  const auto &cntl = f.regs.reg("gc.SDMA0_QUEUE0_RB_CNTL");
  CHECK((*f.last("gc.SDMA0_QUEUE0_RB_CNTL") & cntl.field("F32_WPTR_POLL_ENABLE")->mask()) != 0);
}

namespace {
// The mi300x profile lists one SDMA0 instance; a real MI300X has 16. Add them (bases made up).
// (NBIO 7.9's doorbell range entries live in segment 8, which the profile has.)
void full_mi300x(DiscoveryTable &t) {
  for (const auto &ip : t.dies[0].ips)
    if (ip.hw_id == 108) REQUIRE(ip.bases.size() >= 9);
  const auto sdma = std::find_if(t.dies[0].ips.begin(), t.dies[0].ips.end(),
                                 [](const IpEntry &ip) { return ip.hw_id == 42; });
  REQUIRE(sdma != t.dies[0].ips.end());
  const IpEntry first = *sdma;
  for (std::uint8_t i = 1; i < 16; ++i) {
    IpEntry e = first;
    e.instance = i;
    for (auto &b : e.bases) b += 0x40'0000ull * i;
    t.dies[0].ips.push_back(e);
  }
}
}  // namespace

TEST_CASE("am sdma: SDMA 4.4.2 on MI300X: every instance, SDMA_GFX queues, NBIO 7.9 routing") {
  AmChipFixture f("mi300x", full_mi300x);
  REQUIRE(f.chip.sdma.major == 4);
  REQUIRE(f.chip.sdma_instances == 16);
  SdmaBlock sdma(f.regs, f.chip);
  sdma.init_hw();
  for (unsigned i = 0; i < 16; ++i) CHECK(f.last("sdma0.SDMA_CNTL", i).has_value());
  // Four BIF doorbell ranges and four S2A ports per AID, the ports through PCIE INDEX2.
  CHECK(f.last("nbio.DOORBELL0_CTRL_ENTRY_1").has_value());
  CHECK(f.last("nbio.DOORBELL0_CTRL_ENTRY_16").has_value());
  const auto &e5 = f.regs.reg("nbio.DOORBELL0_CTRL_ENTRY_5");
  CHECK(*f.last("nbio.DOORBELL0_CTRL_ENTRY_5") ==
        (20u << e5.field("BIF_DOORBELL5_RANGE_SIZE_ENTRY")->lo | (0x100u + 4 * 0xA) * 2));
  unsigned aid_writes = 0;
  for (const auto &a : f.bus.trace)
    if (a.write && a.address == f.addr("nbio.S2A_DOORBELL_ENTRY_2_CTRL")) ++aid_writes;
  CHECK(aid_writes == 4);                        // one per AID
  CHECK(sdma.queue_registers(5).instance == 5);  // pipe 1, queue 1
  CHECK(sdma.queue_registers(5).prefix == "sdma0.SDMA_GFX");
  CHECK(sdma.setup_ring(rdna4_ring()) == 0x100);
  CHECK(f.last("sdma0.SDMA_GFX_RB_BASE") == 0x1000u);
  CHECK(f.last("sdma0.SDMA_GFX_DOORBELL_OFFSET") == 0x200u << 2);
  const auto &cntl = f.regs.reg("sdma0.SDMA_GFX_RB_CNTL");
  CHECK(cntl.field("F32_WPTR_POLL_ENABLE") == nullptr);
}

TEST_CASE("am hdp: flush through the remap register, clock gating by version") {
  AmChipFixture f("tinygrad-mock");
  f.reads("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL", 0x5480);
  CHECK(f.addr("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL") == 0xE4D);
  CHECK(flush_hdp(f.regs) == 0x1520);
  CHECK(f.bus.writes_to(0x1520) == std::vector<std::uint32_t>{0});
  CHECK(set_hdp_clockgating(f.regs, f.chip));
  CHECK(f.last("hdp.HDP_MEM_POWER_CTRL") == 0x5u);
  AmChipFixture mi("mi300x");
  CHECK(!set_hdp_clockgating(mi.regs, mi.chip));  // HDP 4.4.2 < 5.2.1
}
