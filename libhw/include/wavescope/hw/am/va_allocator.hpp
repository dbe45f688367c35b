#pragma once
// The GPU virtual-address allocator (am-driver.md §6.2.1): one TLSF allocator over
// [0x2000_0000_0000, 0x2000_0000_0000 + 2^44), shared by every AM device of a process (the driver
// owns one instance; tests make their own). Each allocation is aligned to
// max(largest power of two ≤ size, align), so big buffers are naturally aligned for huge pages.

#include <cstdint>

#include "wavescope/hw/am/tlsf_allocator.hpp"

namespace wavescope::hw::am {

class VaAllocator {
public:
  static constexpr std::uint64_t kBase = 0x2000'0000'0000;
  static constexpr std::uint64_t kSize = std::uint64_t{1} << 44;

  VaAllocator();

  // Throws Error(Usage) for size 0, Error(State) when the window is exhausted.
  std::uint64_t alloc(std::uint64_t size, std::uint64_t align = 0x1000);
  void free(std::uint64_t va);
  // max(largest power of two ≤ size, align): the alignment alloc uses.
  static std::uint64_t alignment_for(std::uint64_t size, std::uint64_t align);

  const TlsfAllocator &tlsf() const { return tlsf_; }

private:
  TlsfAllocator tlsf_;
};

}  // namespace wavescope::hw::am
