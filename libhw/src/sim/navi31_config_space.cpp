#include "wavescope/hw/sim/navi31_config_space.hpp"

#include <cstring>

namespace wavescope::hw::sim {

namespace {
constexpr std::uint32_t kRebarCap = 0x100;
constexpr unsigned kRebarMinSize = 8;                               // 2^8 MiB = 256 MiB
constexpr unsigned kRebarMaxSize = 15;                              // 2^15 MiB = 32 GiB
constexpr std::uint32_t kBarTypeBits[6] = {0xC, 0, 0xC, 0, 0x1, 0}; // 64-bit pref, I/O, 32-bit
} // namespace

std::uint32_t Navi31ConfigSpace::dword(std::uint32_t offset) const {
  std::uint32_t v;
  std::memcpy(&v, bytes_.data() + offset, 4);
  return v;
}

void Navi31ConfigSpace::set_dword(std::uint32_t offset, std::uint32_t value) {
  std::memcpy(bytes_.data() + offset, &value, 4);
}

void Navi31ConfigSpace::reset() {
  bytes_.fill(0);
  set_dword(0x00, 0x744C1002); // device, vendor
  set_dword(0x04, 0x00100000); // status: capability list; command: nothing enabled
  set_dword(0x08, 0x030000C8); // class VGA, revision C8
  for (unsigned i = 0; i < 6; ++i)
    set_dword(0x10 + 4 * i, kBarTypeBits[i]);
  set_dword(0x2C, 0x0E3B1002); // subsystem
  set_dword(0x34, 0x50);       // capability pointer
  set_dword(0x50, 0x00020010); // PCI Express capability v2, endpoint, last in the list
  // Resizable BAR extended capability: id 0x15, version 1, last; sizes 256 MiB .. 32 GiB.
  set_dword(kRebarCap, 0x00010015);
  std::uint32_t sizes = 0;
  for (unsigned n = kRebarMinSize; n <= kRebarMaxSize; ++n)
    sizes |= 1u << (n + 4);
  set_dword(kRebarCap + 4, sizes);
  set_dword(kRebarCap + 8, (kRebarMinSize << 8) | (1u << 5)); // BAR 0, one resizable BAR
}

std::uint64_t Navi31ConfigSpace::bar_size(unsigned index) const {
  switch (index) {
  case 0: return (1ull << ((dword(kRebarCap + 8) >> 8) & 0x1F)) << 20;
  case 2: return 2ull << 20;
  case 4: return 256;
  case 5: return 1ull << 20;
  default: return 0;
  }
}

std::uint64_t Navi31ConfigSpace::bar_address(unsigned index) const {
  if (!bar_present(index))
    return 0;
  std::uint64_t low = dword(0x10 + 4 * index) & (bar_is_io(index) ? ~0x3u : ~0xFu);
  if (bar_is64(index))
    low |= std::uint64_t{dword(0x14 + 4 * index)} << 32;
  return low;
}

std::uint32_t Navi31ConfigSpace::read(std::uint32_t offset, unsigned width) const {
  if ((width != 1 && width != 2 && width != 4) || offset + width > bytes_.size())
    return 0xFFFFFFFF;
  std::uint32_t v = 0;
  std::memcpy(&v, bytes_.data() + offset, width);
  return v;
}

void Navi31ConfigSpace::write(std::uint32_t offset, std::uint32_t value, unsigned width) {
  if ((width != 1 && width != 2 && width != 4) || offset + width > bytes_.size())
    return;
  const std::uint32_t aligned = offset & ~3u;
  const unsigned shift = 8 * (offset & 3);
  const std::uint32_t mask = (width == 4 ? 0xFFFFFFFFu : ((1u << (8 * width)) - 1)) << shift;
  write_dword(aligned, value << shift, mask);
}

void Navi31ConfigSpace::write_dword(std::uint32_t offset, std::uint32_t value,
                                    std::uint32_t byte_mask) {
  const std::uint32_t merged = (dword(offset) & ~byte_mask) | (value & byte_mask);
  if (offset < 0x08) {
    // Vendor/device are read-only; COMMAND is writable, STATUS keeps its capability bit.
    if (offset == 0x04)
      set_dword(0x04, (dword(0x04) & 0xFFFF0000) | (merged & 0x0000FFFF));
    return;
  }
  if (offset >= 0x10 && offset < 0x28) {
    const unsigned index = (offset - 0x10) / 4;
    const bool upper = (index == 1 || index == 3);
    const unsigned bar = upper ? index - 1 : index;
    if (!bar_present(bar))
      return; // BAR1/BAR3 alone are the upper halves; nothing else
    const std::uint64_t size_mask = ~(bar_size(bar) - 1);
    if (upper) {
      set_dword(offset, merged & static_cast<std::uint32_t>(size_mask >> 32));
    } else {
      const std::uint32_t low_bits = bar_is_io(bar) ? 0x3 : 0xF;
      set_dword(offset,
                (merged & static_cast<std::uint32_t>(size_mask) & ~low_bits) | kBarTypeBits[bar]);
    }
    return;
  }
  if (offset == kRebarCap || offset == kRebarCap + 4)
    return; // read-only capability dwords
  if (offset == kRebarCap + 8) {
    const unsigned size = (merged >> 8) & 0x1F;
    if (size < kRebarMinSize || size > kRebarMaxSize)
      return; // unsupported size: ignored
    set_dword(offset, (dword(offset) & ~0x1F00u) | (size << 8));
    // The BAR's address bits below the new size read as zero.
    set_dword(0x10,
              (dword(0x10) & static_cast<std::uint32_t>(~(bar_size(0) - 1))) | kBarTypeBits[0]);
    set_dword(0x14, dword(0x14) & static_cast<std::uint32_t>(~(bar_size(0) - 1) >> 32));
    return;
  }
  if (offset == 0x00 || offset == 0x08 || offset == 0x2C || offset == 0x34 || offset == 0x50)
    return;
  set_dword(offset, merged);
}

} // namespace wavescope::hw::sim
