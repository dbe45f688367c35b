#include "wavescope/hw/am/va_allocator.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

VaAllocator::VaAllocator() : tlsf_(kSize, kBase, "va") {}

std::uint64_t VaAllocator::alignment_for(std::uint64_t size, std::uint64_t align) {
  return std::max(std::bit_floor(size), align);
}

std::uint64_t VaAllocator::alloc(std::uint64_t size, std::uint64_t align) {
  if (size == 0)
    throw Error(
        ErrorKind::Usage,
        fmt::format("va: alloc of 0 bytes (align 0x{:X}); a GPU mapping needs a size", align));
  return tlsf_.alloc(size, alignment_for(size, align));
}

void VaAllocator::free(std::uint64_t va) { tlsf_.free(va); }

}  // namespace wavescope::hw::am
