// The driver's GMC/IH/GFX/SDMA blocks against the fake GPU's models (am-driver.md §7, §11, §12,
// §19.2 items 6-10): hub init and TLB flushes with the semaphore/ack handshake, the IH ring
// receiving injected and engine-made entries, compute and SDMA queues set up by the driver and
// run by the fake through VMID 0's page tables on a doorbell, page faults latched and delivered
// through the IH to the driver's handler, dequeue, persistence of the queue state, and the HDP
// rule (a flush before every doorbell and TLB invalidation).

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/am/cp_model.hpp"
#include "sim/am/fake_gpu.hpp"
#include "sim/am/fake_gpu_pci_function.hpp"
#include "sim/am/gmc_model.hpp"
#include "sim/am/hdp_model.hpp"
#include "sim/am/ih_model.hpp"
#include "sim/am/sdma_model.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_device_bus.hpp"
#include "wavescope/hw/am/doorbell.hpp"
#include "wavescope/hw/am/gfx.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/ih_ring.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"
#include "wavescope/hw/am/queue_status.hpp"
#include "wavescope/hw/am/ring_report.hpp"
#include "wavescope/hw/am/ring_test.hpp"
#include "wavescope/hw/am/sdma.hpp"
#include "wavescope/hw/am/sdma_packets.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

using namespace wavescope;
using namespace wavescope::hw;
using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using sim::am::FakeGpu;

namespace {
constexpr std::uint64_t kVa = PageTable::kVmBase;
// GPU VAs of the test's buffers: gart (pointers and signals) at +0, EOP at +0x1000, the compute
// ring at +1 MiB, the SDMA ring at +2 MiB, data at +3 MiB.
constexpr std::uint64_t kGart = kVa, kEop = kVa + 0x1000, kRing = kVa + 0x10'0000,
                        kSdmaRing = kVa + 0x20'0000, kData = kVa + 0x30'0000;

// A booted-enough mock: GMC hubs, IH, GFX and SDMA initialised by the driver's blocks, boot pages
// as §5.5 lays them out, and the buffers above mapped at pa 0x400000 upward.
struct Rig {
  VirtualClock clock;
  FakeGpu gpu;
  sim::am::FakeGpuPciFunction fn;
  AmDevice dev;
  AmDeviceBus bus;
  AmDeviceVram vram;
  AmRegisters regs;
  AmChipInfo chip;
  TlsfAllocator ptable;
  PageTable pt;
  GmcBlock gmc;
  IhBlock ih;
  GfxBlock gfx;
  SdmaBlock sdma;

  explicit Rig(const std::string &chip_name = "tinygrad-mock")
      : gpu(sim::am::default_fake_gpu_config(chip_name), clock), fn("sim-am:test", gpu),
        dev(fn, clock), bus(dev), vram(dev), regs(bus, dev.registers(), clock),
        chip(chip_info_from_discovery(dev.discovery())), ptable(0x10'0000, 0x200'0000, "ptable"),
        pt(vram, ptable, PageTableConfig{pt_generation_for_gc(chip.gc.major), 0}), gmc(regs, chip),
        ih(regs, vram, gmc, chip, {0x3000, 0x43000, 0x44000, 0x84000}),
        gfx(regs, vram, gmc, chip, {0x9B000, 0x9C000}, {0x1'0000, 0x2'0000, 0x3000}),
        sdma(regs, chip) {
    gmc.read_apertures();
    gmc.set_boot_pages({0, 0x1000, 0x2000});
    const PhysChunk chunk{0x40'0000, 0x40'0000};
    pt.map_range(kVa, 0x40'0000, std::span(&chunk, 1), AddrSpace::Phys);
    gmc.init_hub(VmHub::Mm);
    ih.init_hw();
    gfx.init_hw(false);
    sdma.init_hw();
    gmc.flush_tlb(VmHub::Gc);
    gmc.flush_tlb(VmHub::Mm);
  }
  sim::am::HdpModel &hdp() { return *dynamic_cast<sim::am::HdpModel *>(gpu.block("hdp")); }
  sim::am::GmcModel &gmc_model() { return *dynamic_cast<sim::am::GmcModel *>(gpu.block("gmc")); }
  sim::am::CpModel &cp() { return *dynamic_cast<sim::am::CpModel *>(gpu.block("cp")); }
  sim::am::SdmaModel &sdma_model() {
    return *dynamic_cast<sim::am::SdmaModel *>(gpu.block("sdma"));
  }
  std::uint64_t pa(std::uint64_t va) const { return va - kVa + 0x40'0000; }
  std::uint32_t at(std::uint64_t va) { return dev.read_vram32(pa(va)); }
  void put(std::uint64_t va, const std::vector<std::uint32_t> &dwords) {
    for (std::size_t i = 0; i < dwords.size(); ++i) dev.write_vram32(pa(va) + i * 4, dwords[i]);
  }
  // What the runtime does to submit: wptr memory, HDP flush (PCIe), 64-bit doorbell.
  void ring(unsigned slot, std::uint64_t wptr_va, std::uint64_t value) {
    dev.write_vram32(pa(wptr_va), static_cast<std::uint32_t>(value));
    dev.write_vram32(pa(wptr_va) + 4, static_cast<std::uint32_t>(value >> 32));
    gmc.flush_hdp();
    auto &bar2 = dev.doorbell_bar();
    bar2.write32(doorbell_byte_offset(slot), static_cast<std::uint32_t>(value));
    bar2.write32(doorbell_byte_offset(slot) + 4, static_cast<std::uint32_t>(value >> 32));
  }
  ComputeRing compute_ring() const {
    return {kRing, 0x1'0000, kGart + 0x80, kGart + 0x38, kEop, 0x1000, 0, false};
  }
};
}  // namespace

TEST_CASE("am fake: the models register on every profile") {
  for (const char *chip : {"tinygrad-mock", "navi31", "navi48", "mi300x"}) {
    INFO(chip);
    VirtualClock clock;
    FakeGpu gpu(sim::am::default_fake_gpu_config(chip), clock);
    for (const char *block : {"hdp", "gmc", "ih", "cp", "sdma"}) CHECK(gpu.block(block) != nullptr);
  }
}

TEST_CASE("am fake: hub init, TLB flush handshake and HDP flushes against the GMC model") {
  Rig rig;
  auto &r = rig.gpu.registers();
  // The §7.5 [run] values, as the fake stored them.
  CHECK(r.peek(rig.regs.address("gc.GCVM_CONTEXT0_CNTL")) == 0x1FF'FC07u);
  CHECK(r.peek(rig.regs.address("mmhub.MMVM_L2_CNTL3")) == 0x8013'0009u);
  CHECK(r.peek(rig.regs.address("gc.GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR")) == 0x800u);
  CHECK(rig.gmc_model().mmu_config().enabled);
  CHECK(rig.gmc_model().invalidations(true) == 1);
  CHECK(rig.gmc_model().invalidations(false) == 1);
  // The semaphore is free again after the flush: a read takes it, a second read finds it taken.
  CHECK(rig.dev.rreg("mmhub.MMVM_INVALIDATE_ENG17_SEM") == 1);
  CHECK(rig.dev.rreg("mmhub.MMVM_INVALIDATE_ENG17_SEM") == 0);
  rig.dev.wreg("mmhub.MMVM_INVALIDATE_ENG17_SEM", 0);
  // No ack before a request on a fresh engine.
  CHECK(rig.dev.rreg("gc.GCVM_INVALIDATE_ENG0_ACK") == 0);
  // A busy semaphore times out with the register named.
  rig.gpu.arm_fault("gmc:semaphore-busy");
  CHECK_THROWS_WITH(rig.gmc.flush_tlb(VmHub::Mm), Contains("mm flush_tlb timeout"));
  rig.gpu.clear_faults();
  rig.gpu.arm_fault("gmc:invalidate-hang,hub=gc");
  CHECK_THROWS_WITH(rig.gmc.flush_tlb(VmHub::Gc), Contains("GCVM_INVALIDATE_ENG17_ACK"));
  rig.gpu.clear_faults();
  // Every invalidation so far came after a flush.
  CHECK(rig.hdp().events() == 3);  // GC, MM, and the hung GC request
  CHECK(rig.hdp().unflushed_events() == 0);
  CHECK(rig.dev.rreg("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL") == 0x7F000u);
}

TEST_CASE("am fake: a compute queue runs PM4 on its doorbell through the page tables") {
  Rig rig;
  CHECK(rig.cp().mec_running(0));
  CHECK(rig.gfx.setup_ring(rig.compute_ring()) == kDoorbellMecRing0);
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  s.signal(kData + 0x10, 0xC0FFEE).write(kData + 0x18, 0x1'2345'6789, true).timestamp(kData + 0x20);
  rig.put(kRing, s.dwords());
  rig.ring(kDoorbellMecRing0, kGart + 0x38, s.size());
  CHECK(rig.at(kData + 0x10) == 0xC0FFEEu);
  CHECK(rig.at(kData + 0x18) == 0x2345'6789u);
  CHECK(rig.at(kData + 0x1C) == 1u);
  CHECK(rig.at(kData + 0x20) != 0u);        // the GPU clock
  CHECK(rig.at(kGart + 0x80) == s.size());  // rptr reported
  // The HQD registers read the running queue through GRBM_GFX_CNTL.
  rig.gfx.grbm_select(1, 0, 0);
  CHECK(rig.dev.rreg("gc.CP_HQD_ACTIVE") == 1u);
  CHECK(rig.dev.rreg("gc.CP_HQD_PQ_RPTR") == s.size());
  CHECK(rig.dev.rreg("gc.CP_MQD_BASE_ADDR") == 0x9B000u);
  rig.gfx.grbm_select(1, 0, 1);
  CHECK(rig.dev.rreg("gc.CP_HQD_ACTIVE") == 0u);  // queue 1 is another bank
  rig.gfx.grbm_select();
  // The timestamp's first RELEASE_MEM asked for an interrupt: a CP_EOP_INTERRUPT entry, ignored.
  const auto report = rig.ih.interrupt_handler();
  REQUIRE(report.entries.size() == 1);
  CHECK(report.entries[0].entry.source_id == kIhSrcCpEopInterrupt);
  CHECK(!report.error_state);
  // A wait stalls the queue until memory says go; the next doorbell resumes it.
  Pm4Stream w(Pm4Generation::Gfx10Plus);
  w.wait(kData + 0x40, 1).signal(kData + 0x44, 2);
  rig.put(kRing + s.size() * 4, w.dwords());
  rig.ring(kDoorbellMecRing0, kGart + 0x38, s.size() + w.size());
  CHECK(rig.at(kData + 0x44) == 0u);
  rig.put(kData + 0x40, {1});
  rig.ring(kDoorbellMecRing0, kGart + 0x38, s.size() + w.size());
  CHECK(rig.at(kData + 0x44) == 2u);
  CHECK(rig.hdp().unflushed_events() == 0);
  // Dequeue at fini.
  rig.gfx.fini(false);
  rig.gfx.grbm_select(1, 0, 0);
  CHECK(rig.dev.rreg("gc.CP_HQD_ACTIVE") == 0u);
  rig.gfx.grbm_select();
}

TEST_CASE("am fake: a PM4 page fault is latched, delivered through the IH and cleared") {
  Rig rig;
  rig.gfx.setup_ring(rig.compute_ring());
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  s.signal(kVa + 0x5'0000'0000, 1).signal(kData, 5).write(kVa + 0x5'0000'0008, 2);
  rig.put(kRing, s.dwords());
  rig.ring(kDoorbellMecRing0, kGart + 0x38, s.size());
  // AM enables the default page for every fault kind: the writes land in its dummy page (paddr
  // 0x2000) and the queue carries on.
  CHECK(rig.at(kData) == 5u);
  CHECK(rig.dev.read_vram32(0x2000) == 1u);
  CHECK(rig.dev.read_vram32(0x2008) == 2u);
  CHECK(rig.gmc_model().fault_latched());
  // The partial-boot check (§5.2) sees a non-zero fault status; the second fault added
  // MORE_FAULTS.
  CHECK((rig.dev.rreg("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32") & 1u) == 1u);
  const auto report = rig.ih.interrupt_handler();
  REQUIRE(report.entries.size() == 1);  // one interrupt while the fault is latched
  const auto &e = report.entries[0];
  CHECK(e.verdict.action == IhAction::VmFault);
  REQUIRE(e.fault);
  CHECK(e.fault->va() == kVa + 0x5'0000'0000);
  CHECK((e.fault->status & (1u << 18)) != 0);  // a write
  CHECK(report.error_state);
  CHECK(!rig.gmc_model().fault_latched());
  CHECK(rig.dev.rreg("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32") == 0u);
  // MEC reset (recovery) dequeues the queue; setup_ring brings it back.
  rig.gfx.reset_mec(true);
  rig.gfx.grbm_select(1, 0, 0);
  CHECK(rig.dev.rreg("gc.CP_HQD_ACTIVE") == 0u);
  rig.gfx.grbm_select();
}

TEST_CASE("am fake: without the default page a fault stops the queue, the system aperture is "
          "physical") {
  Rig rig;
  // Context 0 without *_PROTECTION_FAULT_ENABLE_DEFAULT.
  rig.dev.wreg("gc.GCVM_CONTEXT0_CNTL", rig.dev.rreg("gc.GCVM_CONTEXT0_CNTL") & ~0xAA'A800u);
  REQUIRE(!rig.gmc_model().mmu_config().default_page);
  rig.gfx.setup_ring(rig.compute_ring());
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  // MC address 0x40_3010 is inside the system aperture [0, 512 MiB): VRAM paddr 0x40_3010.
  s.signal(0x40'3010, 7).signal(kVa + 0x7'0000'0000, 1).signal(kData, 5);
  rig.put(kRing, s.dwords());
  rig.ring(kDoorbellMecRing0, kGart + 0x38, s.size());
  CHECK(rig.dev.read_vram32(0x40'3010) == 7u);
  CHECK(rig.at(kData) == 0u);  // stopped at the faulting packet
  CHECK(rig.gmc_model().fault_latched());
  rig.gfx.grbm_select(1, 0, 0);
  CHECK(rig.dev.rreg("gc.CP_HQD_PQ_RPTR") == 8u);
  rig.gfx.grbm_select();
  const auto &hqds = rig.cp().hqds();
  bool stopped = false;
  for (const auto &[id, h] : hqds) stopped |= h.state.rfind("fault", 0) == 0;
  CHECK(stopped);
}

TEST_CASE("am fake: an SDMA queue copies, writes, fences and traps on its doorbell") {
  Rig rig;
  CHECK(!rig.sdma_model().halted());  // SDMA init cleared MCU_CNTL.HALT
  const unsigned slot = rig.sdma.setup_ring({kSdmaRing, 0x1'0000, kGart + 0x100, kGart + 0x108, 0});
  CHECK(slot == kDoorbellSdmaEngine0);
  rig.put(kData + 0x800, {1, 2, 3, 4});
  SdmaStream s(SdmaGeneration::Sdma6);
  s.copy(kData + 0x900, kData + 0x800, 16).write(kData + 0x10, 0xAB).fence(kData + 0x14, 7).trap(9);
  rig.put(kSdmaRing, s.dwords());
  rig.ring(slot, kGart + 0x108, s.size() * 4);
  CHECK(rig.at(kData + 0x90C) == 4u);
  CHECK(rig.at(kData + 0x10) == 0xABu);
  CHECK(rig.at(kData + 0x14) == 7u);
  CHECK(rig.at(kGart + 0x100) == s.size() * 4);  // rptr written back (bytes)
  CHECK(rig.dev.rreg("gc.SDMA0_QUEUE0_RB_RPTR") == s.size() * 4);
  const auto report = rig.ih.interrupt_handler();
  REQUIRE(report.entries.size() == 1);
  CHECK(report.entries[0].verdict.source_name == "SDMA_TRAP");
  CHECK(!report.error_state);
  // fini: queue off and the SDMA soft reset.
  rig.sdma.fini();
  CHECK(!rig.sdma_model().queues()[0].enabled);
  CHECK(rig.hdp().unflushed_events() == 0);
}

TEST_CASE("am fake: injected IH entries, overflow and RAS reach the handler") {
  Rig rig;
  // A tool attaching later finds the rings from the registers.
  const auto rings = programmed_ih_rings(rig.regs, rig.gmc);
  REQUIRE(rings);
  CHECK(rings->ring0 == 0x3000);
  CHECK(rings->ring0_wptr == 0x43000);
  CHECK(rings->ring1 == 0x44000);
  rig.gpu.arm_fault("ih:sq-error,type=1");
  rig.gpu.arm_fault("ih:ras,cntlr=1");
  auto r = rig.ih.interrupt_handler();
  REQUIRE(r.entries.size() == 1);
  CHECK(r.entries[0].entry.dwords[0] == 0xEF0A);
  CHECK(r.entries[0].verdict.sq_error_type == 1u);
  CHECK(r.ras_cntlr);
  CHECK(!r.ras_athub);
  CHECK(r.error_state);
  CHECK(dynamic_cast<sim::am::IhModel *>(rig.gpu.block("ih"))->ras_status() == 0u);
  // 8192 entries fill the 64 Ki-dword ring: the last one overflows it.
  for (int i = 0; i < 8192; ++i) rig.gpu.arm_fault("ih:eop,ctx=3");
  r = rig.ih.interrupt_handler();
  CHECK(r.overflow);
  CHECK(rig.ih.interrupt_handler().entries.empty());
}

TEST_CASE("am fake: queue state survives save and load") {
  Rig rig;
  rig.gfx.setup_ring(rig.compute_ring());
  rig.sdma.setup_ring({kSdmaRing, 0x1'0000, kGart + 0x100, kGart + 0x108, 0});
  const auto saved = rig.gpu.save();
  auto restored = FakeGpu::load(saved, rig.clock);
  auto *cp = dynamic_cast<sim::am::CpModel *>(restored->block("cp"));
  REQUIRE(cp);
  unsigned active = 0;
  for (const auto &[id, h] : cp->hqds()) active += h.active;
  CHECK(active == 1);
  auto *sdma = dynamic_cast<sim::am::SdmaModel *>(restored->block("sdma"));
  REQUIRE(sdma);
  CHECK(sdma->queues()[0].enabled);
  CHECK(sdma->queues()[0].run.ring_va == kSdmaRing);
  CHECK(dynamic_cast<sim::am::IhModel *>(restored->block("ih"))->ring(0).enabled);
}

TEST_CASE("am fake: queue status from the registers, and am ring's one-packet tests") {
  Rig rig;
  auto status = [&] {
    return RingReport{"sim-am:test", read_compute_queues(rig.regs, rig.chip),
                      read_sdma_queues(rig.regs, rig.chip), std::nullopt};
  };
  // Not booted by AM: refused.
  auto report = status();
  REQUIRE(report.compute.size() == 2);
  REQUIRE(report.sdma.size() == 1);
  CHECK(!report.compute[0].active);
  CHECK_THROWS_WITH(run_ring_test(rig.dev, RingTestEngine::Compute, report),
                    Contains("SCRATCH_REG7") && Contains("0x00000000"));
  rig.dev.wreg("gc.SCRATCH_REG7", 0xA000'0008);

  for (RingTestEngine engine : {RingTestEngine::Compute, RingTestEngine::Sdma}) {
    const bool compute = engine == RingTestEngine::Compute;
    INFO(compute);
    report = status();
    run_ring_test(rig.dev, engine, report);
    REQUIRE(report.submission);
    const auto &sub = *report.submission;
    CHECK(sub.executed());
    CHECK(sub.before == 0u);
    CHECK(sub.after == (compute ? 0xC0DE'0049u : 0xC0DE'5D4Au));
    CHECK(sub.doorbell == (compute ? kDoorbellMecRing0 : kDoorbellSdmaEngine0));
    CHECK(sub.packets.size() == 1);
    CHECK_THAT(sub.packets[0], Contains(compute ? "RELEASE_MEM" : "WRITE"));
    // The queue as it stood right after execution: active, read pointer caught up.
    if (compute) {
      CHECK(report.compute[0].active);
      CHECK(report.compute[0].ring_va == 0x2FFF'FF01'0000);
      CHECK(report.compute[0].rptr == 8u);
      CHECK(report.compute[0].wptr == 8u);
      CHECK(report.compute[0].doorbell == kDoorbellMecRing0);
    } else {
      CHECK(report.sdma[0].enabled);
      CHECK(report.sdma[0].rptr == 20u);  // 5 dwords, in bytes
      CHECK(report.sdma[0].wptr == 20u);
      CHECK(report.sdma[0].doorbell == kDoorbellSdmaEngine0);
    }
    // Taken down again, and the scratch VA unmapped (a second run maps it afresh).
    const auto after = status();
    CHECK(!after.compute[0].active);
    CHECK(!after.sdma[0].enabled);
    const std::string json = to_json(report);
    CHECK_THAT(json, Contains(R"("executed":true)") && Contains(R"("device":"sim-am:test")"));
    CHECK_THAT(to_text(report),
               Contains("(executed)") && Contains(compute ? "xcc 0 queue 0: active"
                                                          : "gc.SDMA0_QUEUE0 instance 0: enabled"));
  }
  CHECK(rig.hdp().unflushed_events() == 0);
  // A queue in use is left alone.
  rig.gfx.setup_ring(rig.compute_ring());
  report = status();
  CHECK_THROWS_WITH(run_ring_test(rig.dev, RingTestEngine::Compute, report),
                    Contains("compute queue 0 is in use"));
  CHECK_THROWS_WITH(ring_test_engine("gfx"), Contains("compute or sdma"));
}

TEST_CASE("am fake: the GMC model's XGMI settings give the driver its hive apertures") {
  VirtualClock clock;
  auto config = sim::am::default_fake_gpu_config("mi300x");
  for (const char *s : {"gmc.xgmi_node=2", "gmc.xgmi_max_region=3", "gmc.xgmi_segment_mib=65536"})
    sim::am::apply_fake_gpu_setting(config, s);
  FakeGpu gpu(config, clock);
  sim::am::FakeGpuPciFunction fn("sim-am:hive", gpu);
  AmDevice dev(fn, clock);
  AmDeviceBus bus(dev);
  AmRegisters regs(bus, dev.registers(), clock);
  GmcBlock gmc(regs, chip_info_from_discovery(dev.discovery()));
  const auto &a = gmc.read_apertures();
  CHECK(a.xgmi_node == 2);
  CHECK(a.xgmi_max_region == 3);
  CHECK(a.xgmi_segment_size == 64ull << 30);
  CHECK(a.paddr_base == 128ull << 30);
  CHECK(a.is_hive());
  // The fake translates MC addresses with the same base.
  CHECK(gpu.mc_to_paddr(a.mc_base + 0x3000) == 0x3000);
  auto *gmc_model = dynamic_cast<sim::am::GmcModel *>(gpu.block("gmc"));
  REQUIRE(gmc_model);
  CHECK(gmc_model->paddr_base() == 128ull << 30);
}
