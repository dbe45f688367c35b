// GPU page tables (am-driver.md §7.4) on a RAM-backed 512 MiB VRAM with the page-table region
// allocated from paddr 0x200_0000 upward: the [run] golden tables for gfx11 entry by entry, the
// gfx12 and gfx9.4.3 differences, the six translations on all three generations, the cleared
// patterns after unmap, the two-page fragment example, and refused double maps and unmaps.

#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

namespace {
constexpr std::uint64_t kVa = PageTable::kVmBase;
constexpr std::uint64_t kRoot = 0x0, kPdb1At = 0x200'0000, kPdb0At = 0x200'1000,
                        kPtbAt = 0x200'2000, kPtb2At = 0x200'3000;

// The §7.4 fixture: 512 MiB VRAM, root at paddr 0, page tables from the 1 MiB region at 32 MiB
// (roundup(512 MiB / 512, 1 MiB)).
struct Fixture {
  explicit Fixture(PtGeneration g, std::uint64_t ptable_size = 0x10'0000)
      : vram(0x2000'0000), ptable(ptable_size, 0x200'0000, "ptable"),
        pt(vram, ptable, PageTableConfig{g, kRoot}) {}
  SimulatedVram vram;
  TlsfAllocator ptable;
  PageTable pt;

  void map(std::uint64_t off, std::uint64_t size, std::vector<PhysChunk> chunks,
           AddrSpace space = AddrSpace::Phys, bool uncached = false, bool snooped = false) {
    pt.map_range(kVa + off, size, chunks, space, uncached, snooped);
  }
  void map_golden() {
    map(0x0, 0x3000, {{0x10000, 0x3000}});
    map(0x20'0000, 0x20'0000, {{0x40'0000, 0x20'0000}});
    map(0x4000'0000, 0x4000'0000, {{0x4000'0000, 0x4000'0000}});
    map(0x100'0000, 0x2000, {{0x1'2345'6000, 0x1000}, {0x987'6000, 0x1000}}, AddrSpace::Sys, true,
        true);
    map(0x3000, 0x1000, {{0x20000, 0x1000}}, AddrSpace::Phys, true);
  }
  // Every non-zero entry of the table at `table`, by index.
  std::map<unsigned, std::uint64_t> nonzero(std::uint64_t table) const {
    std::map<unsigned, std::uint64_t> m;
    for (unsigned i = 0; i < kEntriesPerTable; ++i)
      if (const auto e = pt.entry(table, i)) m[i] = e;
    return m;
  }
};

using Tables = std::map<std::uint64_t, std::map<unsigned, std::uint64_t>>;

void check_tables(const Fixture &f, const Tables &expected) {
  for (const auto &[table, entries] : expected) {
    INFO("table at paddr 0x" << std::hex << table);
    const auto got = f.nonzero(table);
    for (const auto &[i, e] : entries) {
      INFO("index " << std::dec << i);
      CHECK(f.pt.entry(table, i) == e);
    }
    CHECK(got.size() == entries.size());
  }
}

const Tables kGfx11 = {
    {kRoot, {{0, 0x0000'0000'0200'0001}}},
    {kPdb1At, {{0, 0x0000'0000'0200'1001}, {1, 0x0040'0000'4000'0971}}},
    {kPdb0At, {{0, 0x0000'0000'0200'2001}, {1, 0x0040'0000'0040'04F1}, {8, 0x0000'0000'0200'3001}}},
    {kPtbAt, {{0, 0x10071}, {1, 0x11071}, {2, 0x12071}, {3, 0x0003'0000'0002'0071}}},
    {kPtb2At, {{0, 0x0003'0001'2345'6077}, {1, 0x0003'0000'0987'6077}}},
};
// gfx12: the same tables with gfx12 flag bits; PDB1[1] and PTB[3] are the spec's examples.
const Tables kGfx12 = {
    {kRoot, {{0, 0x0000'0000'0200'0001}}},
    {kPdb1At, {{0, 0x0000'0000'0200'1001}, {1, 0x8000'0000'4000'0971}}},
    {kPdb0At, {{0, 0x0000'0000'0200'2001}, {1, 0x8000'0000'0040'04F1}, {8, 0x0000'0000'0200'3001}}},
    {kPtbAt,
     {{0, 0x8000'0000'0001'0071},
      {1, 0x8000'0000'0001'1071},
      {2, 0x8000'0000'0001'2071},
      {3, 0x80C0'0000'0002'0071}}},
    {kPtb2At, {{0, 0x80C0'0001'2345'6077}, {1, 0x80C0'0000'0987'6077}}},
};
// gfx9.4.3: PDB1[0], the PDB0 table entries, PDB0[1] and PTB[3] are the spec's listed values.
const Tables kGfx9 = {
    {kRoot, {{0, 0x0000'0000'0200'0001}}},
    {kPdb1At, {{0, 0x4800'0000'0200'1001}, {1, 0x0040'0000'4000'0971}}},
    {kPdb0At, {{0, 0x0100'0000'0200'2001}, {1, 0x4004F1}, {8, 0x0100'0000'0200'3001}}},
    {kPtbAt, {{0, 0x10071}, {1, 0x11071}, {2, 0x12071}, {3, 0x0600'0000'0002'0071}}},
    {kPtb2At, {{0, 0x0600'0001'2345'6077}, {1, 0x0600'0000'0987'6077}}},
};
}  // namespace

TEST_CASE("am page table: the §7.4 golden tables on gfx11, entry by entry") {
  Fixture f(PtGeneration::Gfx11);
  f.map_golden();
  check_tables(f, kGfx11);
  CHECK(f.ptable.free_bytes() == 0x10'0000 - 4 * 0x1000);
}

TEST_CASE("am page table: the golden tables on gfx12 and gfx9.4.3") {
  for (auto [g, expected] :
       {std::pair{PtGeneration::Gfx12, &kGfx12}, std::pair{PtGeneration::Gfx9, &kGfx9}}) {
    INFO(pt_generation_name(g));
    Fixture f(g);
    f.map_golden();
    check_tables(f, *expected);
  }
}

TEST_CASE("am page table: the six golden translations on all three generations") {
  for (auto g : {PtGeneration::Gfx9, PtGeneration::Gfx11, PtGeneration::Gfx12}) {
    INFO(pt_generation_name(g));
    Fixture f(g);
    f.map_golden();
    auto t = f.pt.translate(kVa + 0x1234);
    CHECK((t.mapped && !t.system && t.address == 0x11234 && t.level == kPtb));
    t = f.pt.translate(kVa + 0x2FFC);
    CHECK((t.mapped && !t.system && t.address == 0x12FFC));
    t = f.pt.translate(kVa + 0x3F'FFFF);
    CHECK((t.mapped && !t.system && t.address == 0x5F'FFFF && t.level == kPdb0));
    t = f.pt.translate(kVa + 0x7FFF'FFFF);
    CHECK((t.mapped && !t.system && t.address == 0x7FFF'FFFF && t.level == kPdb1));
    t = f.pt.translate(kVa + 0x100'1008);
    CHECK((t.mapped && t.system && t.address == 0x987'6008));
    t = f.pt.translate(kVa + 0x4000);
    CHECK(!t.mapped);
    CHECK(t.level == kPtb);
  }
}

TEST_CASE("am page table: unmap leaves the cleared patterns and frees emptied tables") {
  struct Patterns {
    PtGeneration g;
    std::uint64_t ptb, pdb0, pdb1, pdb2;
  };
  for (const auto &p :
       {Patterns{PtGeneration::Gfx11, 0x70, 0x0040'0000'0000'0070, 0x0040'0000'0000'0070,
                 0x0040'0000'0000'0070},
        Patterns{PtGeneration::Gfx9, 0x70, 0x70, 0x0040'0000'0000'0070, 0x0040'0000'0000'0070},
        Patterns{PtGeneration::Gfx12, 0x8000'0000'0000'0070, 0x8000'0000'0000'0070,
                 0x8000'0000'0000'0070, 0x8000'0000'0000'0070}}) {
    INFO(pt_generation_name(p.g));
    Fixture f(p.g);
    f.map_golden();
    f.pt.unmap_range(kVa + 0x20'0000, 0x20'0000);  // the 2 MiB leaf
    CHECK(f.pt.entry(kPdb0At, 1) == p.pdb0);
    CHECK(!f.pt.translate(kVa + 0x20'0000).mapped);
    f.pt.unmap_range(kVa + 0x4000'0000, 0x4000'0000);  // the 1 GiB leaf
    CHECK(f.pt.entry(kPdb1At, 1) == p.pdb1);
    f.pt.unmap_range(kVa + 0x100'0000, 0x2000);  // the second PTB empties and is freed
    CHECK(f.pt.entry(kPtb2At, 0) == p.ptb);
    CHECK(f.pt.entry(kPtb2At, 1) == p.ptb);
    CHECK(f.pt.entry(kPdb0At, 8) == p.pdb0);
    CHECK_FALSE(f.ptable.is_allocated(kPtb2At));
    CHECK(f.ptable.is_allocated(kPtbAt));
    f.pt.unmap_range(kVa + 0x1000, 0x2000);  // part of the first PTB: it stays
    CHECK(f.pt.entry(kPtbAt, 1) == p.ptb);
    CHECK(f.pt.entry(kPtbAt, 2) == p.ptb);
    CHECK(f.pt.translate(kVa + 0x3000).mapped);
    f.pt.unmap_range(kVa, 0x1000);
    f.pt.unmap_range(kVa + 0x3000, 0x1000);  // last leaf: PTB, PDB0 and PDB1 are freed
    for (unsigned i = 0; i < 4; ++i) CHECK(f.pt.entry(kPtbAt, i) == p.ptb);
    CHECK(f.pt.entry(kPdb0At, 0) == p.pdb0);
    CHECK(f.pt.entry(kPdb1At, 0) == p.pdb1);
    CHECK(f.pt.entry(kRoot, 0) == p.pdb2);  // the root is never freed, its entry is cleared
    CHECK(f.ptable.free_bytes() == 0x10'0000);
    // A cleared entry counts as missing: mapping again builds the same tables at the same places.
    f.map_golden();
    check_tables(f, p.g == PtGeneration::Gfx11  ? kGfx11
                    : p.g == PtGeneration::Gfx9 ? kGfx9
                                                : kGfx12);
  }
}

TEST_CASE("am page table: a two-page mapping at offset 0 gets fragment 1") {
  Fixture f(PtGeneration::Gfx11);
  f.map(0x0, 0x2000, {{0x10000, 0x2000}});
  CHECK(f.pt.entry(kPtbAt, 0) == 0x100F1);
  CHECK(f.pt.entry(kPtbAt, 1) == 0x110F1);
}

TEST_CASE("am page table: a run inside a chunk counts its offset twice (derived, not [run])") {
  // §7.4's example derived from the rule: pa 0x1F_F000, 0x20_1000 bytes at VA +0x1F_F000.
  Fixture f(PtGeneration::Gfx11);
  f.map(0x1F'F000, 0x20'1000, {{0x1F'F000, 0x20'1000}});
  CHECK(f.pt.entry(kPtbAt, 511) == 0x1F'F071);
  CHECK(f.pt.entry(kPdb0At, 1) == 0x0040'0000'0020'0071);
}

TEST_CASE("am page table: double maps are refused before anything is written") {
  Fixture f(PtGeneration::Gfx11);
  f.map_golden();
  const auto free_before = f.ptable.free_bytes();
  CHECK_THROWS_WITH(f.map(0x2000, 0x2000, {{0x80000, 0x2000}}),
                    Contains("va 0x200000002000 is already mapped") &&
                        Contains("PTB entry 0x12071"));
  CHECK(f.pt.entry(kPtbAt, 4) == 0);  // the free page after the mapped one was not written
  // A 4 KiB page inside the 2 MiB leaf, and a 1 GiB range over the small pages.
  CHECK_THROWS_WITH(f.map(0x30'0000, 0x1000, {{0x80000, 0x1000}}),
                    Contains("PDB0 entry 0x400000004004F1"));
  CHECK_THROWS_WITH(f.map(0x0, 0x4000'0000, {{0x4000'0000, 0x4000'0000}}),
                    Contains("already mapped"));
  CHECK(f.ptable.free_bytes() == free_before);
  check_tables(f, kGfx11);
}

TEST_CASE("am page table: a range starting inside an empty entry still checks its tail") {
  // [+0x20_1000, +0x40_1000) starts in PDB0 entry 1 (no table) and ends in entry 2, where a page
  // is mapped. Counting size ÷ coverage entries from an unaligned start would check entry 1 only.
  Fixture f(PtGeneration::Gfx11);
  f.map(0x40'0000, 0x1000, {{0x80000, 0x1000}});
  CHECK_THROWS_WITH(f.map(0x20'1000, 0x20'0000, {{0x10'0000, 0x20'0000}}),
                    Contains("va 0x200000400000 is already mapped"));
  CHECK(f.pt.translate(kVa + 0x40'0000).address == 0x80000);
  CHECK(!f.pt.translate(kVa + 0x20'1000).mapped);
}

TEST_CASE("am page table: unmapping what is not mapped is refused before anything changes") {
  Fixture f(PtGeneration::Gfx11);
  f.map_golden();
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa + 0x4000, 0x1000),
                    Contains("va 0x200000004000 is not mapped"));
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa, 0x5000), Contains("is not mapped"));
  CHECK(f.pt.translate(kVa).mapped);  // nothing was cleared by the refused unmap
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa + 0x20'1000, 0x1000),
                    Contains("cuts the PDB0 leaf of 0x200000 bytes at va 0x200000200000"));
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa + 0x800'0000, 0x20'0000), Contains("not mapped"));
  f.pt.unmap_range(kVa + 0x3000, 0x1000);
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa + 0x3000, 0x1000),  // twice: now a cleared entry
                    Contains("va 0x200000003000 is not mapped (PTB entry 0x70"));
  check_tables(f, {{kPdb0At, kGfx11.at(kPdb0At)}});
}

TEST_CASE("am page table: bad ranges and chunks name the values, a full allocator undoes") {
  Fixture f(PtGeneration::Gfx11);
  CHECK_THROWS_WITH(f.map(0x800, 0x1000, {{0x0, 0x1000}}), Contains("va 0x200000000800"));
  CHECK_THROWS_WITH(f.map(0x0, 0x2000, {{0x0, 0x1000}}), Contains("add up to 0x1000"));
  CHECK_THROWS_WITH(f.map(0x0, 0x1000, {{0x10, 0x1000}}), Contains("chunk 0x10 size 0x1000"));
  CHECK_THROWS_WITH(f.map(0x0, 0x1000, {{0x1000'0000'0000, 0x1000}}, AddrSpace::Sys),
                    Contains("44-bit"));
  CHECK_THROWS_WITH(
      f.pt.map_range(0x1000, 0x1000, std::vector<PhysChunk>{{0, 0x1000}}, AddrSpace::Phys),
      Contains("outside the VM range"));
  CHECK_THROWS_WITH(f.pt.translate(0x1000), Contains("translate(va 0x1000)"));
  CHECK_THROWS_WITH(f.pt.unmap_range(kVa, 0), Contains("size 0x0"));
  CHECK(f.nonzero(kRoot).empty());

  Fixture small(PtGeneration::Gfx11, 0x2000);  // room for two of the three tables a page needs
  REQUIRE_THROWS_WITH(small.map(0x0, 0x1000, {{0x10000, 0x1000}}),
                      Contains("ptable: out of memory"));
  CHECK(small.ptable.free_bytes() == 0x2000);
  CHECK(!(small.pt.entry(kRoot, 0) & kPteValid));
  small.map(0x4000'0000, 0x4000'0000, {{0x4000'0000, 0x4000'0000}});  // one table suffices
  CHECK(small.pt.translate(kVa + 0x4000'1000).address == 0x4000'1000);
}

TEST_CASE("am page table: walk steps, reachable tables and decoded entries") {
  Fixture f(PtGeneration::Gfx11);
  f.map_golden();
  const auto w = f.pt.walk(kVa + 0x100'1008);
  REQUIRE(w.steps.size() == 4);
  CHECK(w.steps[0].table_paddr == kRoot);
  CHECK(w.steps[2].index == 8);
  CHECK(w.steps[3].table_paddr == kPtb2At);
  CHECK(w.steps[3].entry == 0x0003'0000'0987'6077);
  CHECK(w.result.address == 0x987'6008);
  const auto tables = f.pt.tables();
  REQUIRE(tables.size() == 5);
  CHECK(tables[0].paddr == kRoot);
  CHECK(tables[3].paddr == kPtbAt);
  CHECK(tables[4].paddr == kPtb2At);
  CHECK(tables[4].level == kPtb);
  const auto leaf = decode_pte(PtGeneration::Gfx11, kPtb, 0x0003'0001'2345'6077);
  CHECK((leaf.valid && leaf.system && leaf.snooped && leaf.leaf));
  CHECK(leaf.mtype == kMtypeUc);
  CHECK(leaf.address == 0x1'2345'6000);
  CHECK(decode_pte(PtGeneration::Gfx9, kPdb0, 0x4004F1).frag == 9);
  CHECK(decode_pte(PtGeneration::Gfx12, kPtb, 0x80C0'0000'0002'0071).mtype == kMtypeUc);
}
