#pragma once
// GPU page-table entry bits (am-driver.md §7.2, §7.3) for the three page-table generations AM
// drives: gfx9 (GC 9.x: 9.4.3, 9.5.0), gfx10/11 and gfx12. Pure functions; no device access.

#include <cstdint>

namespace wavescope::hw::am {

enum class PtGeneration { Gfx9, Gfx11, Gfx12 };  // Gfx11 also stands for gfx10

// GC major version → generation: < 10 gfx9, 10..11 gfx11, ≥ 12 gfx12.
PtGeneration pt_generation_for_gc(unsigned gc_major);
const char *pt_generation_name(PtGeneration generation);  // "gfx9", "gfx11", "gfx12"

// Levels as amdgpu numbers them: 0 PDB2 (root), 1 PDB1, 2 PDB0, 3 PTB.
inline constexpr int kPdb2 = 0, kPdb1 = 1, kPdb0 = 2, kPtb = 3;
inline constexpr int kPageTableLevels = 4;
inline constexpr unsigned kEntriesPerTable = 512;
// Bytes one entry of `level` covers: 512 GiB, 1 GiB, 2 MiB, 4 KiB.
std::uint64_t pt_entry_coverage(int level);

inline constexpr std::uint64_t kPteValid = 1ull << 0, kPteSystem = 1ull << 1,
                               kPteSnooped = 1ull << 2, kPteExecutable = 1ull << 4,
                               kPteReadable = 1ull << 5, kPteWriteable = 1ull << 6;
inline constexpr std::uint64_t kPteAddressMask = 0x0000'FFFF'FFFF'F000;
inline constexpr std::uint64_t kPdePte = 1ull << 54;         // gfx9/11 "PDE is a leaf"
inline constexpr std::uint64_t kPdePteGfx12 = 1ull << 63;    // gfx12 non-PTB leaf
inline constexpr std::uint64_t kPteIsPteGfx12 = 1ull << 63;  // gfx12 PTB leaf
inline constexpr std::uint64_t kPteTfGfx9 = 1ull << 56;      // gfx9 PDB0 table: translate further
inline constexpr unsigned kMtypeUc = 3;

// tinygrad's get_pte_flags: valid/system/snooped as given, fragment field (bits 7..11) = frag,
// leaves add R|W|X, MTYPE UC when uncached, and the per-generation leaf/table markers. Address
// bits are 0. Throws Error(Usage) for a level outside 0..3 or a fragment above 31.
std::uint64_t pte_flags(PtGeneration generation, int level, bool is_table, unsigned frag,
                        bool uncached, bool system, bool snooped, bool valid);

// Whether an entry at `level` is a leaf (a page) rather than a table pointer: PTB entries always;
// gfx9 PDB0 when TF is absent, PDB1/PDB2 by bit 54; gfx11 bit 54; gfx12 bit 63.
bool pte_is_leaf(PtGeneration generation, int level, std::uint64_t entry);

// The fields of an entry at `level`, for printing.
struct PteFields {
  bool valid = false, system = false, snooped = false, readable = false, writeable = false,
       executable = false, leaf = false;
  unsigned frag = 0, mtype = 0;
  std::uint64_t address = 0;
};
PteFields decode_pte(PtGeneration generation, int level, std::uint64_t entry);

// The pattern an unmap leaves: an invalid leaf at `level` (not zero; e.g. gfx11 PTB 0x70).
inline std::uint64_t pte_cleared(PtGeneration generation, int level) {
  return pte_flags(generation, level, false, 0, false, false, false, false);
}

// Fragment (log2 bytes − 12) of a run at `va` of `size` bytes: "must cover" uses the lowest set
// bit of size, the non-covering variant the largest power of two ≤ size; both take the lowest set
// bit of va (va 0 counts as 2^63). va and size must be 4 KiB multiples and size > 0, else
// Error(Usage) naming both in hex.
unsigned fragment_must_cover(std::uint64_t va, std::uint64_t size);
unsigned fragment_not_covering(std::uint64_t va, std::uint64_t size);

}  // namespace wavescope::hw::am
