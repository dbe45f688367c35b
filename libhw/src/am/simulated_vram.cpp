#include "wavescope/hw/am/simulated_vram.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

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
  auto it = pages_.find(paddr >> 12);
  if (it == pages_.end()) {
    if (value == 0) return;
    it = pages_.emplace(paddr >> 12, std::make_unique<Page>(Page{})).first;
  }
  (*it->second)[(paddr & 0xFFF) / 8] = value;
}

std::uint32_t SimulatedVram::read32(std::uint64_t paddr) const {
  if (paddr & 3) check(paddr, 8, "dword read");  // reports the misalignment
  const std::uint64_t q = read64(paddr & ~7ull);
  return static_cast<std::uint32_t>(paddr & 4 ? q >> 32 : q);
}

void SimulatedVram::write32(std::uint64_t paddr, std::uint32_t value) {
  if (paddr & 3) check(paddr, 8, "dword write");
  const std::uint64_t at = paddr & ~7ull;
  const std::uint64_t q = read64(at);
  const std::uint64_t v =
      paddr & 4 ? (q & 0xFFFF'FFFFull) | std::uint64_t{value} << 32 : (q & ~0xFFFF'FFFFull) | value;
  write64(at, v);
}

void SimulatedVram::read_bytes(std::uint64_t paddr, std::span<std::uint8_t> out) const {
  if (paddr > size_ || out.size() > size_ - paddr) check(paddr, 1, "byte read");
  for (std::size_t i = 0; i < out.size();) {
    const std::uint64_t p = paddr + i;
    const std::size_t n = std::min<std::uint64_t>(out.size() - i, 0x1000 - (p & 0xFFF));
    if (auto it = pages_.find(p >> 12); it != pages_.end())
      std::memcpy(out.data() + i,
                  reinterpret_cast<const std::uint8_t *>(it->second->data()) + (p & 0xFFF), n);
    else
      std::memset(out.data() + i, 0, n);
    i += n;
  }
}

void SimulatedVram::write_bytes(std::uint64_t paddr, std::span<const std::uint8_t> bytes) {
  if (paddr > size_ || bytes.size() > size_ - paddr) check(paddr, 1, "byte write");
  for (std::size_t i = 0; i < bytes.size();) {
    const std::uint64_t p = paddr + i;
    const std::size_t n = std::min<std::uint64_t>(bytes.size() - i, 0x1000 - (p & 0xFFF));
    auto it = pages_.find(p >> 12);
    if (it == pages_.end()) {
      if (std::all_of(bytes.begin() + i, bytes.begin() + i + n, [](auto b) { return b == 0; })) {
        i += n;
        continue;
      }
      it = pages_.emplace(p >> 12, std::make_unique<Page>(Page{})).first;
    }
    std::memcpy(reinterpret_cast<std::uint8_t *>(it->second->data()) + (p & 0xFFF),
                bytes.data() + i, n);
    i += n;
  }
}

void SimulatedVram::for_each_page(
    const std::function<void(std::uint64_t, std::span<const std::uint8_t, 4096>)> &fn) const {
  std::vector<std::uint64_t> keys;
  keys.reserve(pages_.size());
  for (const auto &[k, page] : pages_) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  for (const auto k : keys)
    fn(k << 12, std::span<const std::uint8_t, 4096>(
                    reinterpret_cast<const std::uint8_t *>(pages_.at(k)->data()), 4096));
}

void SimulatedVram::load_page(std::uint64_t paddr, std::span<const std::uint8_t, 4096> bytes) {
  if (paddr & 0xFFF) check(paddr, 8, "page load");
  write_bytes(paddr, bytes);
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
