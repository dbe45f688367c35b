// PTE/PDE flags (am-driver.md §7.3): the whole [run] table for gfx9.4.3, gfx11 and gfx12, the
// leaf test, cleared patterns, and the eight [run] fragment goldens.

#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/pte_flags.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;

namespace {
struct FlagCase {
  const char *name;
  int level;
  bool is_table;
  unsigned frag;
  bool uncached, system, snooped, valid;
  std::uint64_t gfx9, gfx11, gfx12;
};
}  // namespace

TEST_CASE("am pte: the §7.3 flag table, every row and generation") {
  const std::vector<FlagCase> rows = {
      {"PTB leaf, cached, VRAM", kPtb, false, 0, false, false, false, true, 0x71, 0x71,
       0x8000'0000'0000'0071},
      {"PTB leaf, uncached+system+snooped", kPtb, false, 0, true, true, true, true,
       0x0600'0000'0000'0077, 0x0003'0000'0000'0077, 0x80C0'0000'0000'0077},
      {"PDB0 leaf (2 MiB), frag 9", kPdb0, false, 9, false, false, false, true, 0x4F1,
       0x0040'0000'0000'04F1, 0x8000'0000'0000'04F1},
      {"PDB1 leaf (1 GiB), frag 18", kPdb1, false, 18, false, false, false, true,
       0x0040'0000'0000'0971, 0x0040'0000'0000'0971, 0x8000'0000'0000'0971},
      {"PDB2 table entry", kPdb2, true, 0, false, false, false, true, 0x1, 0x1, 0x1},
      {"PDB1 table entry", kPdb1, true, 0, false, false, false, true, 0x4800'0000'0000'0001, 0x1,
       0x1},
      {"PDB0 table entry", kPdb0, true, 0, false, false, false, true, 0x0100'0000'0000'0001, 0x1,
       0x1},
      {"invalid PTB entry, frag 4", kPtb, false, 4, false, false, false, false, 0x270, 0x270,
       0x8000'0000'0000'0270},
  };
  for (const auto &r : rows) {
    INFO(r.name);
    const auto f = [&](PtGeneration g) {
      return pte_flags(g, r.level, r.is_table, r.frag, r.uncached, r.system, r.snooped, r.valid);
    };
    CHECK(f(PtGeneration::Gfx9) == r.gfx9);
    CHECK(f(PtGeneration::Gfx11) == r.gfx11);
    CHECK(f(PtGeneration::Gfx12) == r.gfx12);
  }
}

TEST_CASE("am pte: cleared patterns per level and generation, leaf markers") {
  CHECK(pte_cleared(PtGeneration::Gfx11, kPtb) == 0x70);
  CHECK(pte_cleared(PtGeneration::Gfx9, kPtb) == 0x70);
  for (int lv : {kPdb2, kPdb1, kPdb0})
    CHECK(pte_cleared(PtGeneration::Gfx11, lv) == 0x0040'0000'0000'0070);
  CHECK(pte_cleared(PtGeneration::Gfx9, kPdb0) == 0x70);
  CHECK(pte_cleared(PtGeneration::Gfx9, kPdb1) == 0x0040'0000'0000'0070);
  CHECK(pte_cleared(PtGeneration::Gfx9, kPdb2) == 0x0040'0000'0000'0070);
  for (int lv : {kPdb2, kPdb1, kPdb0, kPtb})
    CHECK(pte_cleared(PtGeneration::Gfx12, lv) == 0x8000'0000'0000'0070);

  CHECK(pte_is_leaf(PtGeneration::Gfx9, kPdb0, 0x4004F1));
  CHECK_FALSE(pte_is_leaf(PtGeneration::Gfx9, kPdb0, 0x0100'0000'0200'2001));
  CHECK(pte_is_leaf(PtGeneration::Gfx9, kPdb1, 0x0040'0000'4000'0971));
  CHECK_FALSE(pte_is_leaf(PtGeneration::Gfx9, kPdb1, 0x4800'0000'0200'1001));
  CHECK(pte_is_leaf(PtGeneration::Gfx11, kPdb0, 0x0040'0000'0040'04F1));
  CHECK_FALSE(pte_is_leaf(PtGeneration::Gfx11, kPdb2, 0x0200'0001));
  CHECK(pte_is_leaf(PtGeneration::Gfx12, kPdb1, 0x8000'0000'4000'0971));
  CHECK(pte_is_leaf(PtGeneration::Gfx12, kPtb, 0x8000'0000'0001'0071));

  CHECK(pt_generation_for_gc(9) == PtGeneration::Gfx9);
  CHECK(pt_generation_for_gc(10) == PtGeneration::Gfx11);
  CHECK(pt_generation_for_gc(11) == PtGeneration::Gfx11);
  CHECK(pt_generation_for_gc(12) == PtGeneration::Gfx12);
  CHECK(pt_entry_coverage(kPdb2) == std::uint64_t{1} << 39);
  CHECK(pt_entry_coverage(kPtb) == 0x1000);
}

TEST_CASE("am pte: the eight §7.3 fragment goldens (must cover / non-covering)") {
  const std::vector<std::tuple<std::uint64_t, std::uint64_t, unsigned, unsigned>> goldens = {
      {0, 0x1000, 0, 0},        {0x1000, 0x2000, 0, 0},
      {0x2000, 0x2000, 1, 1},   {0x200000, 0x200000, 9, 9},
      {0x10000, 0x40000, 4, 4}, {0x10001000, 0x40000, 0, 0},
      {0, 0x3000, 0, 1},        {0x4000'0000, 0x4000'0000, 18, 18},
  };
  for (const auto &[va, size, must, not_covering] : goldens) {
    INFO("va " << std::hex << va << " size " << size);
    CHECK(fragment_must_cover(va, size) == must);
    CHECK(fragment_not_covering(va, size) == not_covering);
  }
}

TEST_CASE("am pte: bad levels, fragments and fragment inputs are refused with the values") {
  CHECK_THROWS_WITH(pte_flags(PtGeneration::Gfx11, 4, false, 0, false, false, false, true),
                    Contains("level 4"));
  CHECK_THROWS_WITH(pte_flags(PtGeneration::Gfx11, kPtb, false, 32, false, false, false, true),
                    Contains("fragment 32"));
  CHECK_THROWS_WITH(fragment_must_cover(0x1000, 0), Contains("size 0x0"));
  CHECK_THROWS_WITH(fragment_not_covering(0x10001, 0x1000), Contains("va 0x10001"));
  CHECK_THROWS_AS(fragment_must_cover(0, 0x800), wavescope::Error);
}
