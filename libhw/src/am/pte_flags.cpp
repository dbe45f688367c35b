#include "wavescope/hw/am/pte_flags.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

PtGeneration pt_generation_for_gc(unsigned gc_major) {
  if (gc_major < 10) return PtGeneration::Gfx9;
  if (gc_major < 12) return PtGeneration::Gfx11;
  return PtGeneration::Gfx12;
}

const char *pt_generation_name(PtGeneration generation) {
  switch (generation) {
  case PtGeneration::Gfx9: return "gfx9";
  case PtGeneration::Gfx11: return "gfx11";
  case PtGeneration::Gfx12: return "gfx12";
  }
  return "?";
}

namespace {
void check_level(int level) {
  if (level < 0 || level >= kPageTableLevels)
    throw Error(ErrorKind::Usage,
                fmt::format("page table level {} is outside 0 (PDB2) .. 3 (PTB)", level));
}
}  // namespace

std::uint64_t pt_entry_coverage(int level) {
  check_level(level);
  return std::uint64_t{1} << (12 + 9 * (kPtb - level));
}

std::uint64_t pte_flags(PtGeneration generation, int level, bool is_table, unsigned frag,
                        bool uncached, bool system, bool snooped, bool valid) {
  check_level(level);
  if (frag > 31)
    throw Error(ErrorKind::Usage,
                fmt::format("page table fragment {} does not fit the 5-bit field (0..31)", frag));
  std::uint64_t v = (valid ? kPteValid : 0) | (system ? kPteSystem : 0) |
                    (snooped ? kPteSnooped : 0) | std::uint64_t{frag} << 7;
  if (!is_table) v |= kPteReadable | kPteWriteable | kPteExecutable;
  const std::uint64_t mtype = uncached ? kMtypeUc : 0;
  switch (generation) {
  case PtGeneration::Gfx12:
    v |= mtype << 54;
    if (!is_table) v |= level != kPtb ? kPdePteGfx12 : kPteIsPteGfx12;
    break;
  case PtGeneration::Gfx11:
    v |= mtype << 48;
    if (!is_table && level != kPtb) v |= kPdePte;
    break;
  case PtGeneration::Gfx9:
    v |= mtype << 57;
    if (!is_table && (level == kPdb1 || level == kPdb2)) v |= kPdePte;
    if (is_table && level == kPdb1) v |= std::uint64_t{9} << 59;  // PDE_BFS(9)
    if (is_table && level == kPdb0) v |= kPteTfGfx9;
    break;
  }
  return v;
}

bool pte_is_leaf(PtGeneration generation, int level, std::uint64_t entry) {
  check_level(level);
  if (level == kPtb) return true;
  switch (generation) {
  case PtGeneration::Gfx12: return (entry & kPdePteGfx12) != 0;
  case PtGeneration::Gfx11: return (entry & kPdePte) != 0;
  case PtGeneration::Gfx9:
    return level == kPdb0 ? (entry & kPteTfGfx9) == 0 : (entry & kPdePte) != 0;
  }
  return false;
}

PteFields decode_pte(PtGeneration generation, int level, std::uint64_t e) {
  PteFields f;
  f.valid = e & kPteValid;
  f.system = e & kPteSystem;
  f.snooped = e & kPteSnooped;
  f.readable = e & kPteReadable;
  f.writeable = e & kPteWriteable;
  f.executable = e & kPteExecutable;
  f.leaf = pte_is_leaf(generation, level, e);
  f.frag = (e >> 7) & 0x1F;
  f.mtype = static_cast<unsigned>(generation == PtGeneration::Gfx12   ? (e >> 54) & 3
                                  : generation == PtGeneration::Gfx11 ? (e >> 48) & 7
                                                                      : (e >> 57) & 3);
  f.address = e & kPteAddressMask;
  return f;
}

namespace {
unsigned fragment(std::uint64_t va, std::uint64_t size, bool must_cover) {
  if (size == 0 || (va | size) & 0xFFF)
    throw Error(ErrorKind::Usage,
                fmt::format("fragment of va 0x{:X} size 0x{:X}: va must be a multiple of 0x1000 "
                            "and size a non-zero multiple of 0x1000",
                            va, size));
  const std::uint64_t va_div = va ? va & (~va + 1) : std::uint64_t{1} << 63;
  const std::uint64_t sz = must_cover ? size & (~size + 1) : std::bit_floor(size);
  return static_cast<unsigned>(std::countr_zero(std::min(va_div, sz))) - 12;
}
}  // namespace

unsigned fragment_must_cover(std::uint64_t va, std::uint64_t size) {
  return fragment(va, size, true);
}
unsigned fragment_not_covering(std::uint64_t va, std::uint64_t size) {
  return fragment(va, size, false);
}

}  // namespace wavescope::hw::am
