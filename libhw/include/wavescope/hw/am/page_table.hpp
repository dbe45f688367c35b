#pragma once
// GPU page tables for VMID 0 (am-driver.md §7.2, §7.4): four levels of 512-entry tables in VRAM,
// indexed by VA − 0x2000_0000_0000. map_range refuses double maps (an inspection walk before any
// write), descends creating missing tables (4 KiB each, zero-filled, from the page-table
// allocator), places a leaf at the first level whose coverage fits the remaining chunk and to
// which the VA is aligned (only the VA decides, as in tinygrad), and writes runs of leaves with
// fragment frag_must(run_va + off, n × coverage). unmap_range refuses anything not mapped
// (checked before any write), overwrites leaves with the level's invalid-leaf pattern and frees
// every table left without a valid entry (never the root). translate walks one VA.
//
// The TLB flush after a map (§7.6) is the GMC's job, not this class's. Pure logic over
// VramAccess: no registers.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/hw/am/pte_flags.hpp"

namespace wavescope::hw::am {

class TlsfAllocator;
class VramAccess;

enum class AddrSpace { Phys, Sys, Peer };  // §6.4
const char *addr_space_name(AddrSpace space);

struct PhysChunk {
  std::uint64_t address = 0;  // paddr (Phys), bus address (Sys), XGMI address (Peer)
  std::uint64_t size = 0;
};

struct PageTableConfig {
  PtGeneration generation = PtGeneration::Gfx11;
  std::uint64_t root_paddr = 0;  // a 4 KiB page the caller allocated; zero-filled here (below)
  std::uint64_t paddr_base = 0;  // XGMI address of paddr 0 (§7.1)
  // Physical address bits PTEs may use: 0 = by generation (48 on gfx9 = GC 9.4/9.5, else 44).
  unsigned address_bits = 0;
  // false: adopt the tables already under the root (a tool attaching to a GPU the driver set up)
  // instead of zero-filling it.
  bool zero_root = true;
};

struct Translation {
  bool mapped = false;
  std::uint64_t address = 0;  // as the PTE holds it (XGMI address for VRAM) plus the page offset
  bool system = false;
  int level = -1;           // level of the leaf, or of the entry that stopped the walk
  std::uint64_t entry = 0;  // that entry
};

struct WalkStep {
  int level = 0;
  std::uint64_t table_paddr = 0;
  unsigned index = 0;
  std::uint64_t entry = 0;
};

struct PageTableWalk {
  std::uint64_t va = 0;
  std::vector<WalkStep> steps;  // root first, down to the leaf or the entry that stopped it
  Translation result;
};

// One reachable table and its non-zero entries (index, entry).
struct PageTableNode {
  std::uint64_t paddr = 0;
  int level = 0;
  std::vector<std::pair<unsigned, std::uint64_t>> entries;
};

class PageTable {
public:
  static constexpr std::uint64_t kVmBase = 0x2000'0000'0000;
  static constexpr std::uint64_t kVmEnd = 0x7FFF'FFFF'FFFF;  // last VA

  PageTable(VramAccess &vram, TlsfAllocator &table_allocator, PageTableConfig config);

  // Maps [va, va + size) onto the chunks in order (sizes must add up to size). Everything is in
  // 4 KiB units. Errors (Usage) name the VA, size or chunk in hex; a double map names the mapped
  // entry; an exhausted page-table allocator (State) leaves the tables as they were.
  void map_range(std::uint64_t va, std::uint64_t size, std::span<const PhysChunk> chunks,
                 AddrSpace space, bool uncached = false, bool snooped = false);
  // Unmaps [va, va + size), which must be covered exactly by mapped leaves.
  void unmap_range(std::uint64_t va, std::uint64_t size);
  Translation translate(std::uint64_t va) const;
  // The walk translate does, step by step.
  PageTableWalk walk(std::uint64_t va) const;
  // Every table reachable from the root, depth first in VA order (root first).
  std::vector<PageTableNode> tables() const;

  std::uint64_t root_paddr() const { return config_.root_paddr; }
  const PageTableConfig &config() const { return config_; }
  // Entry `index` of the table at `table_paddr` (for inspection and tests).
  std::uint64_t entry(std::uint64_t table_paddr, unsigned index) const;

private:
  std::uint64_t child_paddr(std::uint64_t entry) const;
  std::uint64_t cleared_entry(int level) const;
  std::uint64_t new_table();
  bool table_empty(std::uint64_t table_paddr) const;
  void check_range(std::uint64_t va, std::uint64_t size, const char *op) const;
  void check_address(std::uint64_t address, std::uint64_t size, const std::string &what) const;
  void check_unmapped(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
                      std::uint64_t table_va) const;
  void check_mapped(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
                    std::uint64_t table_va, std::uint64_t va, std::uint64_t size) const;
  // Clears leaves in [lo, hi) when clear_leaves, and frees child tables left empty.
  void remove(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
              std::uint64_t table_va, bool clear_leaves);
  void collect(std::uint64_t table, int level, std::vector<PageTableNode> &out) const;
  void write_chunk(std::uint64_t &rel, PhysChunk chunk, AddrSpace space, bool uncached,
                   bool snooped, std::uint64_t &written);

  VramAccess &vram_;
  TlsfAllocator &tables_;
  PageTableConfig config_;
  std::uint64_t address_mask_;
};

}  // namespace wavescope::hw::am
