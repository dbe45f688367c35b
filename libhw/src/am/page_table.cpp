#include "wavescope/hw/am/page_table.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"
#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::am {

const char *addr_space_name(AddrSpace space) {
  switch (space) {
  case AddrSpace::Phys: return "phys";
  case AddrSpace::Sys: return "sys";
  case AddrSpace::Peer: return "peer";
  }
  return "?";
}

namespace {
constexpr std::uint64_t kPage = 0x1000;
const char *level_name(int level) {
  static const char *const names[] = {"PDB2", "PDB1", "PDB0", "PTB"};
  return names[level];
}
unsigned index_at(int level, std::uint64_t rel) {
  return static_cast<unsigned>((rel >> (12 + 9 * (kPtb - level))) & (kEntriesPerTable - 1));
}
}  // namespace

PageTable::PageTable(VramAccess &vram, TlsfAllocator &table_allocator, PageTableConfig config)
    : vram_(vram), tables_(table_allocator), config_(config) {
  const unsigned bits = config_.address_bits                       ? config_.address_bits
                        : config_.generation == PtGeneration::Gfx9 ? 48
                                                                   : 44;
  address_mask_ = (std::uint64_t{1} << bits) - 1;
  if (config_.root_paddr & (kPage - 1))
    throw Error(
        ErrorKind::Usage,
        fmt::format("page table: root at paddr 0x{:X} is not 4 KiB aligned", config_.root_paddr));
  check_address(config_.paddr_base + config_.root_paddr, kPage, "root page table");
  if (config_.zero_root) vram_.zero(config_.root_paddr, kPage);
}

std::uint64_t PageTable::entry(std::uint64_t table_paddr, unsigned index) const {
  return vram_.read64(table_paddr + 8ull * index);
}

std::uint64_t PageTable::child_paddr(std::uint64_t e) const {
  return (e & kPteAddressMask) - config_.paddr_base;
}

// tinygrad clears with set_entry(paddr=0, valid=False) in the PHYS space, so the address field
// holds paddr2xgmi(0) = paddr_base.
std::uint64_t PageTable::cleared_entry(int level) const {
  return pte_cleared(config_.generation, level) | (config_.paddr_base & kPteAddressMask);
}

void PageTable::check_address(std::uint64_t address, std::uint64_t size,
                              const std::string &what) const {
  if (address > address_mask_ || size - 1 > address_mask_ - address)
    throw Error(ErrorKind::Usage,
                fmt::format("page table: {} 0x{:X}..0x{:X} does not fit the {}-bit physical "
                            "address mask 0x{:X}",
                            what, address, address + size, std::bit_width(address_mask_),
                            address_mask_));
}

std::uint64_t PageTable::new_table() {
  const std::uint64_t paddr = tables_.alloc(kPage, kPage);
  try {
    check_address(config_.paddr_base + paddr, kPage, "page table");
  } catch (...) {
    tables_.free(paddr);
    throw;
  }
  vram_.zero(paddr, kPage);
  return paddr;
}

bool PageTable::table_empty(std::uint64_t table_paddr) const {
  for (unsigned i = 0; i < kEntriesPerTable; ++i)
    if (entry(table_paddr, i) & kPteValid) return false;
  return true;
}

void PageTable::check_range(std::uint64_t va, std::uint64_t size, const char *op) const {
  if ((va | size) & (kPage - 1) || size == 0)
    throw Error(ErrorKind::Usage,
                fmt::format("{}(va 0x{:X}, size 0x{:X}): va and size must be multiples of 0x1000 "
                            "and size non-zero",
                            op, va, size));
  if (va < kVmBase || va > kVmEnd || size - 1 > kVmEnd - va)
    throw Error(ErrorKind::Usage,
                fmt::format("{}(va 0x{:X}, size 0x{:X}): outside the VM range 0x{:X}..0x{:X}", op,
                            va, size, kVmBase, kVmEnd));
}

void PageTable::check_unmapped(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
                               std::uint64_t table_va) const {
  const std::uint64_t cov = pt_entry_coverage(level);
  for (std::uint64_t i = (lo - table_va) / cov; i <= (hi - 1 - table_va) / cov; ++i) {
    const std::uint64_t e = entry(table, static_cast<unsigned>(i)), at = table_va + i * cov;
    if (!(e & kPteValid)) continue;
    if (pte_is_leaf(config_.generation, level, e))
      throw Error(ErrorKind::Usage,
                  fmt::format("map_range: va 0x{:X} is already mapped ({} entry 0x{:X} at table "
                              "0x{:X} index {})",
                              kVmBase + std::max(at, lo), level_name(level), e, table, i));
    check_unmapped(child_paddr(e), level + 1, std::max(lo, at), std::min(hi, at + cov), at);
  }
}

void PageTable::check_mapped(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
                             std::uint64_t table_va, std::uint64_t va, std::uint64_t size) const {
  const std::uint64_t cov = pt_entry_coverage(level);
  for (std::uint64_t i = (lo - table_va) / cov; i <= (hi - 1 - table_va) / cov; ++i) {
    const std::uint64_t e = entry(table, static_cast<unsigned>(i)), at = table_va + i * cov;
    if (!(e & kPteValid))
      throw Error(ErrorKind::Usage,
                  fmt::format("unmap_range(va 0x{:X}, size 0x{:X}): va 0x{:X} is not mapped ({} "
                              "entry 0x{:X} at table 0x{:X} index {})",
                              va, size, kVmBase + std::max(at, lo), level_name(level), e, table,
                              i));
    if (pte_is_leaf(config_.generation, level, e)) {
      if (at < lo || at + cov > hi)
        throw Error(ErrorKind::Usage,
                    fmt::format("unmap_range(va 0x{:X}, size 0x{:X}) cuts the {} leaf of 0x{:X} "
                                "bytes at va 0x{:X} (entry 0x{:X})",
                                va, size, level_name(level), cov, kVmBase + at, e));
      continue;
    }
    check_mapped(child_paddr(e), level + 1, std::max(lo, at), std::min(hi, at + cov), at, va, size);
  }
}

void PageTable::remove(std::uint64_t table, int level, std::uint64_t lo, std::uint64_t hi,
                       std::uint64_t table_va, bool clear_leaves) {
  const std::uint64_t cov = pt_entry_coverage(level);
  for (std::uint64_t i = (lo - table_va) / cov; i <= (hi - 1 - table_va) / cov; ++i) {
    const auto idx = static_cast<unsigned>(i);
    const std::uint64_t e = entry(table, idx), at = table_va + i * cov;
    if (!(e & kPteValid)) continue;
    if (pte_is_leaf(config_.generation, level, e)) {
      if (clear_leaves) vram_.write64(table + 8ull * idx, cleared_entry(level));
      continue;
    }
    const std::uint64_t child = child_paddr(e);
    remove(child, level + 1, std::max(lo, at), std::min(hi, at + cov), at, clear_leaves);
    if (table_empty(child)) {
      tables_.free(child);
      vram_.write64(table + 8ull * idx, cleared_entry(level));
    }
  }
}

void PageTable::write_chunk(std::uint64_t &rel, PhysChunk chunk, AddrSpace space, bool uncached,
                            bool snooped, std::uint64_t &written) {
  const std::uint64_t address =
      space == AddrSpace::Phys ? config_.paddr_base + chunk.address : chunk.address;
  const bool system = space == AddrSpace::Sys;
  for (std::uint64_t off = 0; off < chunk.size;) {
    const std::uint64_t remaining = chunk.size - off;
    std::uint64_t table = config_.root_paddr;
    int level = kPdb2;
    // Descend to the first level whose coverage fits and to which the VA is aligned.
    while (pt_entry_coverage(level) > remaining || (rel & (pt_entry_coverage(level) - 1))) {
      const unsigned idx = index_at(level, rel);
      std::uint64_t e = entry(table, idx);
      if (!(e & kPteValid)) {  // missing, or a pattern an unmap left: a new table
        const std::uint64_t child = new_table();
        e = pte_flags(config_.generation, level, true, 0, false, false, false, true) |
            ((config_.paddr_base + child) & kPteAddressMask);
        vram_.write64(table + 8ull * idx, e);
      } else if (pte_is_leaf(config_.generation, level, e)) {
        throw Error(ErrorKind::Internal,
                    fmt::format("map_range: {} entry 0x{:X} over va 0x{:X} is a leaf the "
                                "inspection walk missed",
                                level_name(level), e, kVmBase + rel));
      }
      table = child_paddr(e);
      ++level;
    }
    const std::uint64_t cov = pt_entry_coverage(level);
    const unsigned idx = index_at(level, rel);
    const std::uint64_t n = std::min<std::uint64_t>(remaining / cov, kEntriesPerTable - idx);
    // tinygrad: frag_size(ctx.vaddr + off, n * coverage), with ctx.vaddr the run's VA; runs of
    // 2^44 bytes and more would overflow the 5-bit field (tinygrad masks it), so cap at 31.
    const unsigned frag = std::min(fragment_must_cover(rel + off, n * cov), 31u);
    const std::uint64_t flags =
        pte_flags(config_.generation, level, false, frag, uncached, system, snooped, true);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t slot = table + 8 * (idx + k);
      if (vram_.read64(slot) & kPteValid)
        throw Error(ErrorKind::Internal,
                    fmt::format("map_range: {} entry 0x{:X} at table 0x{:X} index {} is valid "
                                "where a leaf goes",
                                level_name(level), vram_.read64(slot), table, idx + k));
      vram_.write64(slot, flags | ((address + off + k * cov) & kPteAddressMask));
    }
    rel += n * cov;
    off += n * cov;
    written += n * cov;
  }
}

void PageTable::map_range(std::uint64_t va, std::uint64_t size, std::span<const PhysChunk> chunks,
                          AddrSpace space, bool uncached, bool snooped) {
  check_range(va, size, "map_range");
  std::uint64_t total = 0;
  for (const auto &c : chunks) {
    if ((c.address | c.size) & (kPage - 1) || c.size == 0)
      throw Error(ErrorKind::Usage,
                  fmt::format("map_range(va 0x{:X}): {} chunk 0x{:X} size 0x{:X} is not in "
                              "whole 4 KiB pages",
                              va, addr_space_name(space), c.address, c.size));
    check_address(space == AddrSpace::Phys ? config_.paddr_base + c.address : c.address, c.size,
                  fmt::format("{} chunk", addr_space_name(space)));
    total += c.size;
  }
  if (total != size)
    throw Error(ErrorKind::Usage,
                fmt::format("map_range(va 0x{:X}, size 0x{:X}): the {} chunks add up to 0x{:X}", va,
                            size, chunks.size(), total));
  const std::uint64_t lo = va - kVmBase, hi = lo + size;
  check_unmapped(config_.root_paddr, kPdb2, lo, hi, 0);
  std::uint64_t rel = lo, written = 0;
  try {
    for (const auto &c : chunks) write_chunk(rel, c, space, uncached, snooped, written);
  } catch (...) {
    // Undo: clear what was written, then free the tables this call left empty.
    if (written) remove(config_.root_paddr, kPdb2, lo, lo + written, 0, true);
    remove(config_.root_paddr, kPdb2, lo, hi, 0, false);
    throw;
  }
}

void PageTable::unmap_range(std::uint64_t va, std::uint64_t size) {
  check_range(va, size, "unmap_range");
  const std::uint64_t lo = va - kVmBase, hi = lo + size;
  check_mapped(config_.root_paddr, kPdb2, lo, hi, 0, va, size);
  remove(config_.root_paddr, kPdb2, lo, hi, 0, true);
}

Translation PageTable::translate(std::uint64_t va) const { return walk(va).result; }

PageTableWalk PageTable::walk(std::uint64_t va) const {
  if (va < kVmBase || va > kVmEnd)
    throw Error(ErrorKind::Usage,
                fmt::format("translate(va 0x{:X}): outside the VM range 0x{:X}..0x{:X}", va,
                            kVmBase, kVmEnd));
  PageTableWalk w;
  w.va = va;
  const std::uint64_t rel = va - kVmBase;
  std::uint64_t table = config_.root_paddr;
  for (int level = kPdb2; level <= kPtb; ++level) {
    const unsigned idx = index_at(level, rel);
    const std::uint64_t e = entry(table, idx);
    w.steps.push_back({level, table, idx, e});
    w.result.level = level;
    w.result.entry = e;
    if (!(e & kPteValid)) return w;
    if (pte_is_leaf(config_.generation, level, e)) {
      w.result.mapped = true;
      w.result.address = (e & kPteAddressMask) + (rel & (pt_entry_coverage(level) - 1));
      w.result.system = (e & kPteSystem) != 0;
      return w;
    }
    table = child_paddr(e);
  }
  return w;  // unreachable: a PTB entry is always a leaf
}

void PageTable::collect(std::uint64_t table, int level, std::vector<PageTableNode> &out) const {
  const std::size_t at = out.size();
  out.push_back({table, level, {}});
  for (unsigned i = 0; i < kEntriesPerTable; ++i) {
    const std::uint64_t e = entry(table, i);
    if (!e) continue;
    out[at].entries.emplace_back(i, e);
    if ((e & kPteValid) && !pte_is_leaf(config_.generation, level, e))
      collect(child_paddr(e), level + 1, out);
  }
}

std::vector<PageTableNode> PageTable::tables() const {
  std::vector<PageTableNode> out;
  collect(config_.root_paddr, kPdb2, out);
  return out;
}

}  // namespace wavescope::hw::am
