// The fake GPU's MMU (am-driver.md §7.2, §7.3, §19.2 item 6): the hardware walk from the context-0
// PT base agrees with the driver's PageTable on the §7.4 golden tables for gfx9, gfx11 and gfx12;
// faults (range, invalid entry, context disabled, outside VRAM), MC → paddr, and the address
// space's dword and byte access across pages and into host memory.

#include <catch2/catch.hpp>

#include <vector>

#include "sim/am/gpu_mmu.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

using namespace wavescope::hw::am;
using namespace wavescope::hw::sim::am;
using Catch::Matchers::Contains;

namespace {
constexpr std::uint64_t kVa = PageTable::kVmBase;

struct MmuFixture {
  explicit MmuFixture(PtGeneration g)
      : vram(0x2000'0000), host(1ull << 40), ptable(0x10'0000, 0x200'0000, "ptable"),
        pt(vram, ptable, PageTableConfig{g, 0}), memory(vram, &host) {
    config.generation = g;
    config.enabled = true;
    config.page_table_base = 0x0 | 1;
    config.start_page = kVa >> 12;
    config.end_page = 0x7FFF'FFFF'FFFF >> 12;
    // The §7.4 golden maps 1 GiB at pa 0x4000_0000 on 512 MiB of RAM: the walk only needs the
    // tables, so the MMU is told VRAM is 4 GiB.
    config.vram_size = 0x1'0000'0000;
    config.fb_end = 0x1'0000'0000;
  }
  void map_golden() {
    const std::vector<PhysChunk> a{{0x10000, 0x3000}}, b{{0x40'0000, 0x20'0000}},
        c{{0x4000'0000, 0x4000'0000}}, d{{0x1'2345'6000, 0x1000}, {0x987'6000, 0x1000}},
        e{{0x20000, 0x1000}};
    pt.map_range(kVa, 0x3000, a, AddrSpace::Phys);
    pt.map_range(kVa + 0x20'0000, 0x20'0000, b, AddrSpace::Phys);
    pt.map_range(kVa + 0x4000'0000, 0x4000'0000, c, AddrSpace::Phys);
    pt.map_range(kVa + 0x100'0000, 0x2000, d, AddrSpace::Sys, true, true);
    pt.map_range(kVa + 0x3000, 0x1000, e, AddrSpace::Phys, true);
  }
  SimulatedVram vram, host;
  TlsfAllocator ptable;
  PageTable pt;
  GpuMemory memory;
  MmuConfig config;
};
}  // namespace

TEST_CASE("am sim mmu: the hardware walk agrees with the driver's tables on §7.4") {
  for (PtGeneration g : {PtGeneration::Gfx9, PtGeneration::Gfx11, PtGeneration::Gfx12}) {
    INFO(pt_generation_name(g));
    MmuFixture f(g);
    f.map_golden();
    struct Case {
      std::uint64_t off, address;
      bool system;
      std::uint64_t page;
    };
    for (const Case c :
         {Case{0x1234, 0x11234, false, 0x1000}, Case{0x2FFC, 0x12FFC, false, 0x1000},
          Case{0x3F'FFFF, 0x5F'FFFF, false, 0x20'0000},
          Case{0x7FFF'FFFF, 0x7FFF'FFFF, false, 0x4000'0000},
          Case{0x100'1008, 0x987'6008, true, 0x1000}, Case{0x3010, 0x20010, false, 0x1000}}) {
      INFO(std::hex << c.off);
      std::vector<MmuWalkStep> steps;
      const auto t = mmu_translate(f.vram, f.config, kVa + c.off, false, &steps);
      CHECK(t.address == c.address);
      CHECK(t.system == c.system);
      CHECK(t.page_bytes == c.page);
      const auto driver = f.pt.translate(kVa + c.off);
      CHECK(driver.address == t.address);
      CHECK(driver.level == t.level);
      CHECK(steps.size() == static_cast<std::size_t>(t.level + 1));
    }
    // +0x4000 is not mapped: the PTB entry is invalid.
    try {
      mmu_translate(f.vram, f.config, kVa + 0x4000, true);
      FAIL("no fault");
    } catch (const MmuFaultError &e) {
      CHECK(e.fault().reason == "invalid PDE/PTE");
      CHECK(e.fault().level == kPtb);
      CHECK(e.fault().va == kVa + 0x4000);
      CHECK(e.fault().status == ((1u << 8) | (1u << 18)));  // MAPPING_ERROR, RW
    }
  }
}

TEST_CASE("am sim mmu: range, disabled context, base and XGMI checks") {
  MmuFixture f(PtGeneration::Gfx11);
  f.map_golden();
  CHECK_THROWS_WITH(mmu_translate(f.vram, f.config, 0x1000, false), Contains("range"));
  auto off = f.config;
  off.enabled = false;
  CHECK_THROWS_WITH(mmu_translate(f.vram, off, kVa, false), Contains("context disabled"));
  auto base = f.config;
  base.page_table_base = 0;
  CHECK_THROWS_WITH(mmu_translate(f.vram, base, kVa, false), Contains("not valid"));
  // The same tables seen by node 1 of a hive (paddr_base 0x1_0000_0000): XGMI addresses in the
  // tables are node 0's, so the walk leaves this GPU's VRAM.
  auto other = f.config;
  other.paddr_base = 0x1'0000'0000;
  other.page_table_base = 0x1'0000'0000 | 1;
  CHECK_THROWS_WITH(mmu_translate(f.vram, other, kVa, false), Contains("not in this GPU's VRAM"));
  // MC → paddr through the FB aperture.
  CHECK(mc_to_paddr(f.config, 0x9B000) == 0x9B000u);
  CHECK(!mc_to_paddr(f.config, 0x1'0000'0000));
  auto fb = f.config;
  fb.fb_base = 0x80'0000'0000;
  CHECK(mc_to_paddr(fb, 0x80'0000'3000) == 0x3000u);
  CHECK(!mc_to_paddr(fb, 0x3000));
}

TEST_CASE("am sim mmu: the address space reads, writes and copies across pages") {
  MmuFixture f(PtGeneration::Gfx12);
  f.map_golden();
  GpuAddressSpace as(f.memory, f.config);
  as.write32(kVa + 0xFFC, 0x1122'3344);
  as.write64(kVa + 0x1000, 0x5566'7788'99AA'BBCC);
  CHECK(as.read32(kVa + 0xFFC) == 0x1122'3344);
  CHECK(as.read64(kVa + 0x1000) == 0x5566'7788'99AA'BBCC);
  CHECK(f.vram.read64(0x10FF8) >> 32 == 0x1122'3344);  // VA +0xFFC is paddr 0x10FFC
  CHECK(as.read_dwords(kVa + 0xFFC, 3) ==
        std::vector<std::uint32_t>{0x1122'3344, 0x99AA'BBCC, 0x5566'7788});
  // Into host memory (system pages) and back, unaligned and across a page boundary.
  as.copy(kVa + 0x100'0FFD, kVa + 0xFFD, 7);
  CHECK(f.memory.read8(0x1'2345'6FFD, true) == 0x33);  // byte 1 of 0x11223344 at VA +0xFFD
  CHECK(f.memory.read8(0x987'6003, true) == 0x99);
  std::vector<std::uint8_t> back;
  as.copy(kVa + 0x2000, kVa + 0x100'0FFD, 7);
  for (unsigned i = 0; i < 7; ++i) back.push_back(f.memory.read8(0x12000 + i, false));
  CHECK(back == std::vector<std::uint8_t>{0x33, 0x22, 0x11, 0xCC, 0xBB, 0xAA, 0x99});
  // A large aligned copy through the 2 MiB leaf.
  for (unsigned i = 0; i < 0x2000; i += 4) as.write32(kVa + 0x20'0000 + i, i * 3);
  as.copy(kVa + 0x30'0000, kVa + 0x20'0000, 0x2000);
  CHECK(as.read32(kVa + 0x30'1FFC) == 0x1FFC * 3);
  // A copy whose destination faults leaves it untouched.
  CHECK_THROWS_AS(as.copy(kVa + 0x4000 - 4, kVa, 8), MmuFaultError);
  CHECK(as.read32(kVa + 0x3FFC) == 0);
  CHECK(as.translated_pages() > 0);
}

TEST_CASE("am page table: zero_root false adopts the tables under an existing root") {
  MmuFixture f(PtGeneration::Gfx11);
  f.map_golden();
  TlsfAllocator more(0x10'0000, 0x300'0000, "more tables");
  PageTableConfig adopt{PtGeneration::Gfx11, 0, 0, 0, false};
  PageTable attached(f.vram, more, adopt);
  CHECK(attached.translate(kVa + 0x1234).address == 0x11234);
  const PhysChunk chunk{0x50'0000, 0x1000};
  attached.map_range(kVa + 0x2'0000'0000, 0x1000, std::span(&chunk, 1), AddrSpace::Phys);
  CHECK(mmu_translate(f.vram, f.config, kVa + 0x2'0000'0010, false).address == 0x50'0010);
  CHECK(mmu_translate(f.vram, f.config, kVa + 0x1234, false).address == 0x11234);
  // The default still starts from an empty root.
  PageTable fresh(f.vram, more, PageTableConfig{PtGeneration::Gfx11, 0});
  CHECK(!fresh.translate(kVa + 0x1234).mapped);
}
