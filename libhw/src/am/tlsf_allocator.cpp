#include "wavescope/hw/am/tlsf_allocator.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {
std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }
}  // namespace

unsigned TlsfAllocator::lv1(std::uint64_t size) { return std::bit_width(size); }

unsigned TlsfAllocator::lv2(std::uint64_t size) {
  const unsigned bits = std::bit_width(size);
  if (bits == 0) return 0;
  const unsigned shift = bits > kLv2Bits ? bits - kLv2Bits : 0;
  return static_cast<unsigned>((size - (std::uint64_t{1} << (bits - 1))) >> shift);
}

TlsfAllocator::TlsfAllocator(std::uint64_t size, std::uint64_t base, std::string name)
    : size_(size), base_(base), name_(std::move(name)) {
  storage_.resize(lv1(size) + 1);
  lv1_count_.assign(storage_.size(), 0);
  // A zero-size allocator is valid (tinygrad's "ptable" one on a large BAR) and refuses every
  // alloc.
  if (size > 0) insert_free(0, size, std::nullopt);
}

void TlsfAllocator::insert_free(std::uint64_t start, std::uint64_t size,
                                std::optional<std::uint64_t> prev) {
  Bucket &bucket = storage_[lv1(size)][lv2(size)];
  bucket.push_back(start);
  ++lv1_count_[lv1(size)];
  blocks_[start] = Block{size, prev, true, std::prev(bucket.end())};
}

void TlsfAllocator::remove_free(std::uint64_t start) {
  Block &b = blocks_.at(start);
  storage_[lv1(b.size)][lv2(b.size)].erase(b.bucket_pos);
  --lv1_count_[lv1(b.size)];
  b.free = false;
}

// Splits the free block at `start` into [start, start + first_size) and the rest, both free.
void TlsfAllocator::split(std::uint64_t start, std::uint64_t first_size) {
  const Block b = blocks_.at(start);
  const std::uint64_t next = start + b.size;
  remove_free(start);
  insert_free(start, first_size, b.prev);
  insert_free(start + first_size, b.size - first_size, start);
  if (auto it = blocks_.find(next); it != blocks_.end()) it->second.prev = start + first_size;
}

void TlsfAllocator::merge_right(std::uint64_t start) {
  std::uint64_t size = blocks_.at(start).size;
  std::uint64_t next = start + size;
  for (auto it = blocks_.find(next); it != blocks_.end() && it->second.free;
       it = blocks_.find(next)) {
    const std::uint64_t next_size = it->second.size;
    const auto prev = blocks_.at(start).prev;
    remove_free(start);
    remove_free(next);
    blocks_.erase(next);
    size += next_size;
    insert_free(start, size, prev);
    next = start + size;
  }
  if (auto it = blocks_.find(next); it != blocks_.end()) it->second.prev = start;
}

std::uint64_t TlsfAllocator::alloc(std::uint64_t req, std::uint64_t align) {
  if (align == 0)
    throw Error(
        ErrorKind::Usage,
        fmt::format("{}: alignment 0 for a 0x{:X}-byte request (use 1 for none)", name_, req));
  auto out_of_memory = [&] {
    return Error(ErrorKind::State,
                 fmt::format("{}: out of memory: no free block for 0x{:X} bytes aligned to 0x{:X} "
                             "(0x{:X} of 0x{:X} bytes free)",
                             name_, req, align, free_bytes(), size_));
  };
  req = std::max(kMinBlock, req);
  if (req > size_ || align - 1 > size_ - req) throw out_of_memory();
  std::uint64_t search = std::max(kMinBlock, req + align - 1);
  search = round_up(search, std::uint64_t{1} << (std::bit_width(search) - kLv2Bits));
  const unsigned first_l1 = lv1(search);
  for (unsigned l1 = first_l1; l1 < storage_.size(); ++l1) {
    if (lv1_count_[l1] == 0) continue;
    for (unsigned l2 = l1 == first_l1 ? lv2(search) : 0; l2 < kLv2Buckets; ++l2) {
      if (storage_[l1][l2].empty()) continue;
      std::uint64_t start = storage_[l1][l2].front();
      std::uint64_t size = blocks_.at(start).size;
      if (const std::uint64_t aligned = round_up(start, align); aligned != start) {
        split(start, aligned - start);
        size -= aligned - start;
        start = aligned;
      }
      if (size > req) split(start, req);
      remove_free(start);
      return start + base_;
    }
  }
  throw out_of_memory();
}

void TlsfAllocator::free(std::uint64_t address) {
  const std::uint64_t start = address - base_;
  auto it = address >= base_ ? blocks_.find(start) : blocks_.end();
  if (it == blocks_.end() || it->second.free)
    throw Error(ErrorKind::Usage,
                fmt::format("{}: free(0x{:X}): no allocated block starts there (allocator "
                            "0x{:X}..0x{:X})",
                            name_, address, base_, base_ + size_));
  insert_free(start, it->second.size, it->second.prev);
  std::uint64_t left = start;
  while (auto prev = blocks_.at(left).prev) {
    if (!blocks_.at(*prev).free) break;
    left = *prev;
  }
  merge_right(left);
}

std::uint64_t TlsfAllocator::free_bytes() const {
  std::uint64_t n = 0;
  for (const auto &[start, b] : blocks_)
    if (b.free) n += b.size;
  return n;
}

bool TlsfAllocator::is_allocated(std::uint64_t address) const {
  if (address < base_) return false;
  auto it = blocks_.find(address - base_);
  return it != blocks_.end() && !it->second.free;
}

}  // namespace wavescope::hw::am
