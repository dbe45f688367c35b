// The fake GPU's queue engines (am-driver.md §12.8, §19.2 items 8-9): the PM4 interpreter and the
// SDMA executor run streams made by the driver's packet builders through VMID 0's page tables —
// RELEASE_MEM / SDMA writes land in memory, waits stall and resume, IBs run (and resume), EOP and
// trap interrupts reach the environment, and bad packets or page faults stop the queue.

#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/am/gpu_mmu.hpp"
#include "sim/am/pm4_interpreter.hpp"
#include "sim/am/sdma_executor.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"
#include "wavescope/hw/am/sdma_packets.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

using namespace wavescope::hw::am;
using namespace wavescope::hw::sim::am;
using Catch::Matchers::Contains;

namespace {
constexpr std::uint64_t kVa = PageTable::kVmBase;
constexpr std::uint64_t kRing = kVa + 0x10'0000, kData = kVa, kIb = kVa + 0x8000;

// 1 MiB ring at +1 MiB (pa 0x100000), 64 KiB of data/IB space at +0 (pa 0x400000).
struct QueueFixture {
  QueueFixture()
      : vram(0x2000'0000), ptable(0x10'0000, 0x200'0000, "ptable"),
        pt(vram, ptable, PageTableConfig{PtGeneration::Gfx11, 0}), memory(vram, nullptr) {
    const std::vector<PhysChunk> ring{{0x10'0000, 0x10'0000}}, data{{0x40'0000, 0x1'0000}};
    pt.map_range(kRing, 0x10'0000, ring, AddrSpace::Phys);
    pt.map_range(kData, 0x1'0000, data, AddrSpace::Phys);
    config.generation = PtGeneration::Gfx11;
    config.enabled = true;
    config.page_table_base = 1;
    config.start_page = kVa >> 12;
    config.end_page = 0x7FFF'FFFF'FFFF >> 12;
    config.vram_size = 0x2000'0000;
  }
  SimulatedVram vram;
  TlsfAllocator ptable;
  PageTable pt;
  GpuMemory memory;
  MmuConfig config;
};

struct Env final : CpEnvironment, SdmaEnvironment {
  std::uint32_t read_register(std::uint32_t address) override { return regs[address]; }
  void write_register(std::uint32_t address, std::uint32_t value) override {
    regs[address] = value;
    written.emplace_back(address, value);
  }
  std::uint64_t gpu_clock() override { return clock += 100; }
  void cp_interrupt(unsigned source, std::uint32_t context) override {
    interrupts.emplace_back(source, context);
  }
  void trap(std::uint32_t context) override { interrupts.emplace_back(49, context); }
  std::map<std::uint32_t, std::uint32_t> regs;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> written;
  std::vector<std::pair<unsigned, std::uint32_t>> interrupts;
  std::uint64_t clock = 0x1000;
};

void put(GpuAddressSpace &as, std::uint64_t va, const std::vector<std::uint32_t> &dwords) {
  for (std::size_t i = 0; i < dwords.size(); ++i) as.write32(va + i * 4, dwords[i]);
}

Pm4Queue pm4_queue() {
  Pm4Queue q;
  q.ring_va = kRing;
  q.ring_dwords = 0x10'0000 / 4;
  q.rptr_report_va = kData + 0x100;
  return q;
}
}  // namespace

TEST_CASE("am sim pm4: RELEASE_MEM writes, waits stall and resume, the rptr is reported") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  s.nop().signal(kData + 0x10, 7).write(kData + 0x18, 0x1'0000'0002, true).timestamp(kData + 0x20);
  s.wait(kData + 0x40, 5).signal(kData + 0x14, 9);
  put(as, kRing, s.dwords());
  auto q = pm4_queue();
  q.wptr = s.size();
  auto r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Waiting);
  CHECK_THAT(r.message, Contains("WAIT_REG_MEM on memory"));
  CHECK(as.read32(kData + 0x10) == 7);
  CHECK(as.read64(kData + 0x18) == 0x1'0000'0002);
  CHECK(as.read64(kData + 0x20) == 0x1064);   // the clock after one read
  CHECK(as.read32(kData + 0x14) == 0);        // behind the wait
  CHECK(as.read32(kData + 0x100) == q.rptr);  // reported in dwords
  CHECK(env.interrupts.size() == 1);          // the timestamp's first RELEASE_MEM asks for one
  CHECK(env.interrupts[0].first == 181);
  // The value arrives; the next run resumes at the wait.
  as.write32(kData + 0x40, 6);
  r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Idle);
  CHECK(as.read32(kData + 0x14) == 9);
  CHECK(q.rptr == s.size());
  CHECK(q.releases == 5);
  // A partly submitted packet waits for the rest.
  Pm4Stream more(Pm4Generation::Gfx10Plus);
  more.signal(kData + 0x30, 1);
  put(as, kRing + q.wptr * 4, more.dwords());
  q.wptr += 4;
  CHECK(run_pm4(q, as, env, Pm4Generation::Gfx10Plus).packets == 0);
  q.wptr += 4;
  CHECK(run_pm4(q, as, env, Pm4Generation::Gfx10Plus).packets == 1);
  CHECK(as.read32(kData + 0x30) == 1);
}

TEST_CASE("am sim pm4: indirect buffers run, and resume after a wait inside") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  Pm4Stream ib(Pm4Generation::Gfx10Plus);
  ib.signal(kData + 0x10, 1).wait(kData + 0x40, 1).signal(kData + 0x14, 2);
  put(as, kIb, ib.dwords());
  Pm4Stream ring(Pm4Generation::Gfx10Plus);
  ring.indirect_buffer(kIb, static_cast<std::uint32_t>(ib.size())).signal(kData + 0x18, 3);
  put(as, kRing, ring.dwords());
  auto q = pm4_queue();
  q.wptr = ring.size();
  auto r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Waiting);
  CHECK(q.ibs.size() == 1);
  CHECK(q.rptr == 4);  // the IB packet itself is consumed
  CHECK(as.read32(kData + 0x10) == 1);
  CHECK(as.read32(kData + 0x18) == 0);
  as.write32(kData + 0x40, 1);
  r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Idle);
  CHECK(q.ibs.empty());
  CHECK(as.read32(kData + 0x14) == 2);
  CHECK(as.read32(kData + 0x18) == 3);
}

TEST_CASE("am sim pm4: registers, PRED_EXEC, the HDP write-wait, and what stops a queue") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  const std::uint32_t vals[] = {0xAB};
  s.set_uconfig_reg(0xC010, vals)
      .pred_exec(0x2, 8)
      .signal(kData + 0x10, 5)
      .memory_barrier(0x1500, 0x1501);
  s.dispatch_direct(1, 1, 1, 0);
  env.regs[0x1501] = 0xFFFF'FFFF;  // HDP flush done
  put(as, kRing, s.dwords());
  auto q = pm4_queue();
  q.wptr = s.size();
  auto r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Idle);
  CHECK(env.regs[0xC010] == 0xAB);
  CHECK(as.read32(kData + 0x10) == 0);     // XCC 0 is not in the PRED_EXEC mask 0x2
  CHECK(env.regs[0x1500] == 0xFFFF'FFFF);  // the HDP flush request
  CHECK(q.dispatches == 1);

  // A bad opcode raises CP_BAD_OPCODE_ERROR and stops at the packet.
  const std::vector<std::uint32_t> bad = {pm4_header(0x99, 1), 0};
  put(as, kRing + q.wptr * 4, bad);
  q.wptr += 2;
  const auto before = q.rptr;
  r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Fault);
  CHECK_THAT(r.message, Contains("bad opcode 0x99"));
  CHECK(q.rptr == before);
  CHECK(env.interrupts.back().first == 183);

  // A RELEASE_MEM to an unmapped VA faults with the walk's details.
  auto q2 = pm4_queue();
  Pm4Stream w(Pm4Generation::Gfx10Plus);
  w.signal(kVa + 0x5'0000'0000, 1);
  put(as, kRing, w.dwords());
  q2.wptr = w.size();
  r = run_pm4(q2, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Fault);
  REQUIRE(r.page_fault);
  CHECK(r.page_fault->va == kVa + 0x5'0000'0000);
  CHECK(r.page_fault->write);
}

TEST_CASE("am sim sdma: the runtime's packets execute through the MMU") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  for (unsigned i = 0; i < 0x100; i += 4) as.write32(kData + 0x1000 + i, 0xA000 + i);
  SdmaStream s(SdmaGeneration::Sdma6);
  s.write(kData + 0x10, 0xAB).copy(kData + 0x2001, kData + 0x1000, 0x41).fence(kData + 0x14, 3);
  s.timestamp(kData + 0x18).trap(7).poll_memory(kData + 0x40, 2).fence(kData + 0x20, 4);
  put(as, kRing, s.dwords());
  SdmaQueue q;
  q.ring_va = kRing;
  q.ring_bytes = 0x10'0000;
  q.rptr_writeback_va = kData + 0x200;
  q.wptr = s.size() * 4;
  auto r = run_sdma(q, as, env);
  CHECK(r.status == QueueRunStatus::Waiting);
  CHECK(as.read32(kData + 0x10) == 0xAB);
  CHECK(f.memory.read8(0x40'2001, false) == 0x00);  // first byte of 0xA000
  CHECK(f.memory.read8(0x40'2002, false) == 0xA0);
  CHECK(f.memory.read8(0x40'2041, false) == 0x40);  // byte 0 of 0xA040
  CHECK(f.memory.read8(0x40'2042, false) == 0x00);  // not copied (0x41 bytes)
  CHECK(as.read32(kData + 0x14) == 3);
  CHECK(as.read64(kData + 0x18) == 0x1064);
  CHECK(env.interrupts == std::vector<std::pair<unsigned, std::uint32_t>>{{49, 7}});
  CHECK(as.read64(kData + 0x200) == q.rptr);
  CHECK(as.read32(kData + 0x20) == 0);
  as.write32(kData + 0x40, 2);
  r = run_sdma(q, as, env);
  CHECK(r.status == QueueRunStatus::Idle);
  CHECK(as.read32(kData + 0x20) == 4);
  CHECK(q.rptr == q.wptr);
  CHECK(q.copied_bytes == 0x41);
}

TEST_CASE("am sim sdma: INDIRECT runs its IB, bad packets stop the queue") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  SdmaStream ib(SdmaGeneration::Sdma6);
  ib.write(kData + 0x10, 1).fence(kData + 0x14, 2);
  put(as, kIb, ib.dwords());
  SdmaStream s(SdmaGeneration::Sdma6);
  s.indirect(kIb, static_cast<std::uint32_t>(ib.size()), 0).fence(kData + 0x18, 3);
  put(as, kRing, s.dwords());
  SdmaQueue q;
  q.ring_va = kRing;
  q.ring_bytes = 0x10'0000;
  q.wptr = s.size() * 4;
  CHECK(run_sdma(q, as, env).status == QueueRunStatus::Idle);
  CHECK(as.read32(kData + 0x10) == 1);
  CHECK(as.read32(kData + 0x14) == 2);
  CHECK(as.read32(kData + 0x18) == 3);

  // An INDIRECT that does not end on an 8-dword boundary.
  const std::vector<std::uint32_t> misplaced = {
      4, static_cast<std::uint32_t>(kIb), static_cast<std::uint32_t>(kIb >> 32), 4, 0, 0};
  put(as, kRing + q.wptr, misplaced);
  q.wptr += 24;
  auto r = run_sdma(q, as, env);
  CHECK(r.status == QueueRunStatus::Fault);
  CHECK_THAT(r.message, Contains("8-dword boundary"));

  SdmaQueue bad;
  bad.ring_va = kRing;
  bad.ring_bytes = 0x10'0000;
  const std::vector<std::uint32_t> op17 = {0x11};
  put(as, kRing, op17);
  bad.wptr = 4;
  r = run_sdma(bad, as, env);
  CHECK(r.status == QueueRunStatus::Fault);
  CHECK_THAT(r.message, Contains("bad SDMA opcode 17"));
  bad.wptr = 2;
  CHECK_THAT(run_sdma(bad, as, env).message, Contains("pointers"));
}

TEST_CASE("am sim queues: memory the fake cannot reach stops the queue, it does not throw") {
  QueueFixture f;
  GpuAddressSpace as(f.memory, f.config);
  Env env;
  // A system page: the fixture has no host memory behind it.
  const PhysChunk sys{0x1'0000'0000, 0x1000};
  f.pt.map_range(kVa + 0x100'0000, 0x1000, std::span(&sys, 1), AddrSpace::Sys);
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  s.signal(kVa + 0x100'0000, 1);
  put(as, kRing, s.dwords());
  auto q = pm4_queue();
  q.wptr = s.size();
  const auto r = run_pm4(q, as, env, Pm4Generation::Gfx10Plus);
  CHECK(r.status == QueueRunStatus::Fault);
  CHECK_THAT(r.message, Contains("no host memory"));
  CHECK(!r.page_fault);
  SdmaStream d(SdmaGeneration::Sdma6);
  d.write(kVa + 0x100'0000, 1);
  put(as, kRing, d.dwords());
  SdmaQueue sq;
  sq.ring_va = kRing;
  sq.ring_bytes = 0x10'0000;
  sq.wptr = d.size() * 4;
  CHECK(run_sdma(sq, as, env).status == QueueRunStatus::Fault);
}
