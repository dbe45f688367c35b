// The GFX block (am-driver.md §12.3-§12.5, §13) against a register bus stub: [run] values on the
// RDNA4 mock, the MQD image golden (56 writes from CP_MQD_BASE_ADDR equal MQD dwords 0x80..0xB7),
// dequeue, MEC reset, partial boot, clock gating, and the multi-XCC paths of MI300X.

#include <catch2/catch.hpp>

#include "support_am/am_chip_fixture.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/gfx.hpp"
#include "wavescope/hw/am/mqd.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using wavescope::test::AmChipFixture;

namespace {
struct GfxFixture {
  explicit GfxFixture(const std::string &profile)
      : f(profile, wavescope::test::distinct_xcc_bases), vram(512ull << 20), gmc(f.regs, f.chip),
        gfx(f.regs, vram, gmc, f.chip, {0x9B000, 0x9B000 + 0x1000ull * f.chip.xccs},
            {0x1'0000, 0x2'0000, 0x3000}) {
    gmc.read_apertures();
    gmc.set_boot_pages({0, 0x1000, 0x2000});
    for (unsigned x = 0; x < f.chip.xccs; ++x) f.reads("gc.GCVM_INVALIDATE_ENG17_ACK", 1, x);
  }
  ComputeRing rdna4_ring() const {
    ComputeRing r;
    r.ring_va = 0x2000'0020'0000;
    r.ring_bytes = 2 << 20;
    r.rptr_va = 0x2000'0000'0020;
    r.wptr_va = 0x2000'0000'0030;
    r.eop_va = 0x2000'0000'1000;
    r.eop_bytes = 0x1000;
    return r;
  }
  std::uint32_t vram_dword(std::uint64_t paddr) const {
    const auto w = vram.read64(paddr & ~7ull);
    return static_cast<std::uint32_t>(paddr & 4 ? w >> 32 : w);
  }
  AmChipFixture f;
  SimulatedVram vram;
  GmcBlock gmc;
  GfxBlock gfx;
};
}  // namespace

TEST_CASE("am gfx: §12.3 [run] init values on the RDNA4 mock") {
  GfxFixture t("tinygrad-mock");
  auto &f = t.f;
  t.gfx.init_hw(false);
  CHECK(f.last("gc.SH_MEM_CONFIG") == 0xC00Cu);
  CHECK(f.last("gc.SH_MEM_BASES") == 0x1'0002u);
  CHECK(f.bus.writes_to(f.addr("gc.SH_MEM_CONFIG")).size() == 16);  // one per VMID
  CHECK(f.last("gc.CP_MEC_RS64_CNTL") == 0x400'0000u);
  CHECK(f.last("gc.CP_MEC_DOORBELL_RANGE_LOWER") == 0u);
  CHECK(f.last("gc.CP_MEC_DOORBELL_RANGE_UPPER") == 0xF8u);
  CHECK(f.last("gc.TCP_CNTL") == 0x2000'0000u);
  CHECK(f.last("gc.RLC_CNTL") == 1u);
  CHECK(f.last("gc.RLC_SPM_MC_CNTL") == 0xFu);
  CHECK(f.last("gc.GRBM_CNTL") == 0xFFu);
  CHECK(f.last("gc.GRBM_GFX_CNTL") == 0u);  // always restored
  CHECK(f.last("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_0_CTRL") == 0x3000'0007u);
  CHECK(f.last("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_3_CTRL") == 0x3000'000Du);
  // Ucode starts (>> 2) for PFP, ME (me 0) and MEC (me 1), each pipe pulsed in reset.
  CHECK(f.last("gc.CP_PFP_PRGRM_CNTR_START") == 0x4000u);
  CHECK(f.last("gc.CP_ME_PRGRM_CNTR_START") == 0x8000u);
  CHECK(f.last("gc.CP_MEC_RS64_PRGRM_CNTR_START") == 0xC00u);
  CHECK(f.last("gc.CP_MEC_RS64_PRGRM_CNTR_START_HI") == 0u);
  CHECK(f.bus.writes_to(f.addr("gc.CP_ME_CNTL")).size() == 4);  // PFP and ME reset 1 then 0
  CHECK(t.gmc.hub_initialised(VmHub::Gc));
  // The 50 ms MEC settle went through the clock.
  CHECK(f.clock.now().time_since_epoch() >= std::chrono::milliseconds(50));
}

TEST_CASE("am gfx: RLC autoload wait conditions") {
  GfxFixture t("tinygrad-mock");
  auto &f = t.f;
  // CP busy and bootload complete: neither condition holds.
  f.reads("gc.CP_STAT", 0x8000'0000);
  f.reads("gc.RLC_RLCS_BOOTLOAD_STATUS", 0x8000'0000);
  CHECK_THROWS_WITH(t.gfx.init_hw(false), Contains("RLC autoload timeout"));
  // AM's condition accepts "bootload not complete" (the quirk), the kernel's does not.
  f.reads("gc.RLC_RLCS_BOOTLOAD_STATUS", 0);
  CHECK_NOTHROW(t.gfx.init_hw(true));
  CHECK_THROWS_AS(t.gfx.init_hw(true, RlcAutoloadCondition::Kernel), wavescope::Error);
  f.reads("gc.CP_STAT", 0);
  f.reads("gc.RLC_RLCS_BOOTLOAD_STATUS", 0x8000'0000);
  CHECK_NOTHROW(t.gfx.init_hw(true, RlcAutoloadCondition::Kernel));
}

TEST_CASE("am gfx: §12.4 setup_ring: the MQD image golden and the HQD order") {
  GfxFixture t("tinygrad-mock");
  auto &f = t.f;
  f.reads("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL", 0x5480);
  f.bus.trace.clear();
  CHECK(t.gfx.setup_ring(t.rdna4_ring()) == 3);
  const std::uint64_t first = f.addr("gc.CP_MQD_BASE_ADDR");
  CHECK(first == 0x3209);
  CHECK(f.addr("gc.CP_HQD_ACTIVE") == 0x320B);
  CHECK(f.addr("gc.CP_HQD_PQ_WPTR_HI") == 0x3240);
  // The trace: GRBM select me 1, 56 writes by address, HQD_ACTIVE, HDP flush, deselect.
  std::vector<wavescope::test::BusAccess> writes;
  for (const auto &a : f.bus.trace)
    if (a.write) writes.push_back(a);
  REQUIRE(writes.size() == 1 + 56 + 1 + 1 + 1);
  CHECK(writes[0].address == f.addr("gc.GRBM_GFX_CNTL"));
  CHECK(writes[0].value == 0x4);  // meid 1
  for (unsigned i = 0; i < 56; ++i) {
    INFO(i);
    CHECK(writes[1 + i].address == first + i);
    CHECK(writes[1 + i].value == t.vram_dword(0x9B000 + (0x80 + i) * 4));
  }
  CHECK(writes[57].address == f.addr("gc.CP_HQD_ACTIVE"));
  CHECK(writes[57].value == 1);
  CHECK(writes[58].address == 0x5480 / 4);
  CHECK(writes[59].address == f.addr("gc.GRBM_GFX_CNTL"));
  CHECK(writes[59].value == 0);
  // The [run] register values, as written.
  CHECK(f.bus.value(first) == 0x9B000);                       // MQD_BASE
  CHECK(f.bus.value(f.addr("gc.CP_HQD_PQ_BASE")) == 0x2000);  // PQ_BASE lo
  CHECK(f.bus.value(f.addr("gc.CP_HQD_PQ_BASE_HI")) == 0x20);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_PQ_RPTR_REPORT_ADDR")) == 0x20);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_PQ_WPTR_POLL_ADDR")) == 0x30);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_PQ_CONTROL")) == 0x512);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_EOP_BASE_ADDR")) == 0x10);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_EOP_CONTROL")) == 0x9);
  CHECK(f.bus.value(f.addr("gc.CP_HQD_HQ_STATUS0")) == 0x2000'4000);
  CHECK(f.bus.value(f.addr("gc.CP_MQD_CONTROL")) == 0x100);
  CHECK(t.vram_dword(0x9B000) == kMqdHeader);

  auto bad = t.rdna4_ring();
  bad.idx = 2;
  CHECK_THROWS_WITH(t.gfx.setup_ring(bad), Contains("queue 2"));
  bad.idx = 5;  // pipe 1, queue 1
  CHECK_NOTHROW(t.gfx.setup_ring(bad));
  CHECK(f.bus.value(f.addr("gc.CP_MQD_BASE_ADDR")) == 0x9C000);
}

TEST_CASE("am gfx: AQL queues on every XCC of MI300X") {
  GfxFixture t("mi300x");
  auto &f = t.f;
  REQUIRE(f.chip.xccs == 8);
  auto ring = t.rdna4_ring();
  ring.aql = true;
  t.gfx.setup_ring(ring);
  for (unsigned xcc = 0; xcc < 8; ++xcc) {
    INFO(xcc);
    CHECK(f.bus.value(f.addr("gc.CP_MQD_BASE_ADDR", xcc)) == 0x9B000 + 0x1000 * xcc);
    CHECK(f.bus.value(f.addr("gc.CP_HQD_AQL_CONTROL", xcc)) == 1);
    CHECK(f.last("gc.CP_HQD_ACTIVE", xcc) == 1u);
    CHECK(t.vram_dword(0x9B000 + 0x1000 * xcc + 0x27 * 4) == xcc);  // logic XCC id
  }
  // A PM4 queue uses XCC 0 only.
  GfxFixture p("mi300x");
  p.gfx.setup_ring(p.rdna4_ring());
  CHECK(p.f.last("gc.CP_HQD_ACTIVE", 0) == 1u);
  CHECK(!p.f.last("gc.CP_HQD_ACTIVE", 1).has_value());
}

TEST_CASE("am gfx: MI300X init: golden GB_ADDR_CONFIG, MEC_CNTL, doorbell ranges per XCC") {
  GfxFixture t("mi300x");
  auto &f = t.f;
  unsigned partitions = 0;
  t.gfx.set_spatial_partition_hook([&](unsigned mode) { partitions += mode; });
  t.gfx.init_hw(false);
  for (unsigned xcc = 0; xcc < 8; ++xcc) {
    CHECK(f.last("gc.GB_ADDR_CONFIG", xcc) == 0x2A11'4042u);
    CHECK(f.last("gc.CP_MEC_DOORBELL_RANGE_LOWER", xcc) == 0x100u * xcc);
    CHECK(f.last("gc.CP_MEC_DOORBELL_RANGE_UPPER", xcc) == 0x100u * xcc + 0xF8);
    CHECK(f.last("gc.CP_MEC_CNTL", xcc) == 0u);  // enabled
    CHECK(f.bus.writes_to(f.addr("gc.CP_MEC_CNTL", xcc)).size() == 2);
  }
  CHECK(partitions == 1);
  // No compute doorbell ports on NBIO 7.9.
  CHECK(!f.regs.has("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_0_CTRL"));
  for (const auto &a : f.bus.trace) CHECK(a.aid == 0);
  // SH_MEM_CONFIG: retry_disable, f8_mode, unaligned.
  const auto &cfg = f.regs.reg("gc.SH_MEM_CONFIG");
  const std::uint32_t expected =
      static_cast<std::uint32_t>(cfg.field("RETRY_DISABLE")->mask() | cfg.field("F8_MODE")->mask() |
                                 (3ull << cfg.field("ALIGNMENT_MODE")->lo));
  CHECK(f.last("gc.SH_MEM_CONFIG", 7) == expected);
}

TEST_CASE("am gfx: §12.5 dequeue and MEC reset") {
  GfxFixture t("navi31");
  auto &f = t.f;
  // Queue 0 active until a dequeue request; queue 1 idle.
  bool active = true;
  const auto hqd_active = f.addr("gc.CP_HQD_ACTIVE");
  const auto grbm = f.addr("gc.GRBM_GFX_CNTL");
  f.bus.read_hooks[hqd_active] = [&](std::uint32_t) {
    const unsigned queue = f.bus.value(grbm) >> 8 & 7;
    return queue == 0 && active ? 1u : 0u;
  };
  f.bus.write_hooks[f.addr("gc.CP_HQD_DEQUEUE_REQUEST")] = [&](std::uint32_t v) {
    active = false;
    return v;
  };
  t.gfx.reset_mec(false);
  CHECK(f.bus.writes_to(f.addr("gc.CP_HQD_DEQUEUE_REQUEST")) == std::vector<std::uint32_t>{2});
  CHECK(f.bus.writes_to(f.addr("gc.SPI_COMPUTE_QUEUE_RESET")) == std::vector<std::uint32_t>{1});
  // GC 11: GRBM soft reset of CP and CPC pulsed.
  const auto &sr = f.regs.reg("gc.GRBM_SOFT_RESET");
  const auto cp = static_cast<std::uint32_t>(sr.field("SOFT_RESET_CP")->mask() |
                                             sr.field("SOFT_RESET_CPC")->mask());
  CHECK(f.bus.writes_to(f.addr("gc.GRBM_SOFT_RESET")) == std::vector<std::uint32_t>{cp, 0});
  CHECK(f.last("gc.CP_MEC_RS64_CNTL") == 0x400'0000u);
  CHECK(f.last("gc.GRBM_GFX_CNTL") == 0u);

  // A queue that never goes idle times out, unless AM is already in its error state.
  active = true;
  f.bus.write_hooks.clear();
  CHECK_THROWS_WITH(t.gfx.dequeue_hqds(false), Contains("HQD dequeue timeout"));
  CHECK_NOTHROW(t.gfx.dequeue_hqds(true));

  // GC 12 resets through mec_pipe0_reset, no GRBM soft reset.
  GfxFixture g12("tinygrad-mock");
  g12.gfx.reset_mec(false);
  CHECK(g12.f.bus.writes_to(g12.f.addr("gc.GRBM_SOFT_RESET")).empty());
}

TEST_CASE("am gfx: partial boot waits, inits the GC hub and resets the MEC only") {
  GfxFixture t("tinygrad-mock");
  auto &f = t.f;
  t.gfx.init_hw(true);
  CHECK(t.gmc.hub_initialised(VmHub::Gc));
  CHECK(f.last("gc.GCVM_CONTEXT0_CNTL") == 0x1FF'FC07u);
  CHECK(!f.last("gc.SH_MEM_CONFIG").has_value());
  CHECK(!f.last("nbio.GDC_S2A0_S2A_DOORBELL_ENTRY_0_CTRL").has_value());
  CHECK(f.last("gc.CP_MEC_RS64_CNTL") == 0x400'0000u);
}

TEST_CASE("am gfx: §13 clock gating [run] value and safe mode") {
  GfxFixture t("tinygrad-mock");
  auto &f = t.f;
  // The RLC takes the message: CMD (bit 0) reads 0 again.
  f.bus.write_hooks[f.addr("gc.RLC_SAFE_MODE")] = [](std::uint32_t v) { return v & ~1u; };
  t.gfx.set_clockgating();
  CHECK(f.last("gc.RLC_CGCG_CGLS_CTRL") == 0x363Fu);
  const auto &safe = f.regs.reg("gc.RLC_SAFE_MODE");
  const auto cmd = static_cast<std::uint32_t>(safe.field("CMD")->mask());
  const auto msg = static_cast<std::uint32_t>(1ull << safe.field("MESSAGE")->lo);
  CHECK(f.bus.writes_to(f.addr("gc.RLC_SAFE_MODE")) == std::vector<std::uint32_t>{cmd | msg, cmd});
  CHECK(f.last("gc.SDMA0_RLC_CGCG_CTRL").has_value());
  CHECK(f.last("gc.RLC_CGTT_MGCG_OVERRIDE").has_value());
  // Safe mode that never acknowledges.
  f.bus.write_hooks.clear();
  CHECK_THROWS_WITH(t.gfx.set_clockgating(), Contains("RLC safe mode timeout"));
}
