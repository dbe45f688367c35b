#include "wavescope/hw/am/simulated_vram.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

SimulatedVram::SimulatedVram(std::uint64_t size) : size_(size) {}

void SimulatedVram::check(std::uint64_t paddr, std::uint64_t size, const char *what) const {
  if ((paddr | size) & 7 || paddr > size_ || size > size_ - paddr)
    throw Error(ErrorKind::Usage,
                fmt::format("simulated VRAM: {} of 0x{:X} bytes at paddr 0x{:X} is outside the "
                            "0x{:X}-byte VRAM or not 8-byte aligned",
                            what, size, paddr, size_));
}

std::uint64_t SimulatedVram::read64(std::uint64_t paddr) const {
  check(paddr, 8, "read");
  auto it = pages_.find(paddr >> 12);
  return it == pages_.end() ? 0 : (*it->second)[(paddr & 0xFFF) / 8];
}

void SimulatedVram::write64(std::uint64_t paddr, std::uint64_t value) {
  check(paddr, 8, "write");
  auto &page = pages_[paddr >> 12];
  if (!page) page = std::make_unique<Page>(Page{});
  (*page)[(paddr & 0xFFF) / 8] = value;
}

void SimulatedVram::zero(std::uint64_t paddr, std::uint64_t size) {
  check(paddr, size, "zero-fill");
  for (std::uint64_t p = paddr; p < paddr + size;) {
    const std::uint64_t page_end = (p | 0xFFF) + 1;
    const std::uint64_t end = std::min(page_end, paddr + size);
    if (auto it = pages_.find(p >> 12); it != pages_.end()) {
      if (p == (p & ~0xFFFull) && end == page_end)
        pages_.erase(it);
      else
        for (std::uint64_t q = p; q < end; q += 8) (*it->second)[(q & 0xFFF) / 8] = 0;
    }
    p = end;
  }
}

}  // namespace wavescope::hw::am
