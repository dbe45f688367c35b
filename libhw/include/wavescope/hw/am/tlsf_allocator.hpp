#pragma once
// The two-level segregated-fit allocator AM uses for VRAM and GPU virtual addresses
// (am-driver.md §6.2). Its placement rules are tinygrad's exactly, so layouts (page-table
// addresses, boot allocations) come out identical: 16 second-level buckets per power-of-two class,
// the first (oldest-inserted) block of the first non-empty bucket that is certainly big enough,
// an unaligned head split off and left free, the tail split off, and on free a walk left over
// free neighbours followed by merging rightwards.
//
// Failures throw wavescope::Error: out of memory (State) names the request and alignment in hex;
// freeing an address that is not an allocated block (Usage) names the address.

#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wavescope::hw::am {

class TlsfAllocator {
public:
  // Manages [0, size) and hands out base + offset. `name` appears in error messages
  // ("ptable", "va", ...).
  explicit TlsfAllocator(std::uint64_t size, std::uint64_t base = 0, std::string name = "tlsf");

  // An address aligned to `align` (≥ 1; offsets, not base + offset, are aligned) with at least
  // max(16, size) bytes.
  std::uint64_t alloc(std::uint64_t size, std::uint64_t align = 1);
  // Returns the block starting at `address` (a value alloc returned).
  void free(std::uint64_t address);

  std::uint64_t size() const { return size_; }
  std::uint64_t base() const { return base_; }
  const std::string &name() const { return name_; }
  // Bytes in free blocks, and whether `address` starts an allocated block.
  std::uint64_t free_bytes() const;
  bool is_allocated(std::uint64_t address) const;

  // The bucket of a block size: lv1 = bit length, lv2 = the 4 bits after the most significant.
  static unsigned lv1(std::uint64_t size);
  static unsigned lv2(std::uint64_t size);

private:
  static constexpr std::uint64_t kMinBlock = 16;
  static constexpr unsigned kLv2Bits = 5;  // tinygrad: lv2_cnt (16).bit_length()
  static constexpr unsigned kLv2Buckets = 1u << kLv2Bits;

  struct Block {
    std::uint64_t size = 0;
    std::optional<std::uint64_t> prev;  // start of the block to the left
    bool free = false;
    std::list<std::uint64_t>::iterator bucket_pos;  // valid while free
  };
  using Bucket = std::list<std::uint64_t>;

  void insert_free(std::uint64_t start, std::uint64_t size, std::optional<std::uint64_t> prev);
  void remove_free(std::uint64_t start);
  void split(std::uint64_t start, std::uint64_t first_size);
  void merge_right(std::uint64_t start);

  std::uint64_t size_, base_;
  std::string name_;
  std::vector<std::array<Bucket, kLv2Buckets>> storage_;  // [lv1][lv2], oldest first
  std::vector<std::uint64_t> lv1_count_;
  std::map<std::uint64_t, Block> blocks_;  // by start offset; they tile [0, size)
};

}  // namespace wavescope::hw::am
