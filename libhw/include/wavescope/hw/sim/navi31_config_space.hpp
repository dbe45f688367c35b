#pragma once
// The simulated Navi31 GPU function's PCI configuration space (navi31-flash.md §10.10): vendor
// 1002 device 744C, BAR0 64-bit prefetchable VRAM sized by the Resizable-BAR capability at 0x100
// (256 MiB – 32 GiB), BAR2 64-bit prefetchable 2 MiB doorbells, BAR4 256-byte I/O, BAR5 32-bit
// 1 MiB registers. BARs implement the usual read-only low bits (an all-ones write reads back the
// size mask). Everything else is plain storage.

#include <array>
#include <cstdint>
#include <optional>

namespace wavescope::hw::sim {

class Navi31ConfigSpace {
public:
  Navi31ConfigSpace() { reset(); }
  void reset();

  std::uint32_t read(std::uint32_t offset, unsigned width) const;
  void write(std::uint32_t offset, std::uint32_t value, unsigned width);

  bool memory_enabled() const { return (bytes_[4] & 0x2) != 0; }
  // The bus address a memory BAR is assigned to, and its size.
  std::uint64_t bar_address(unsigned index) const;
  std::uint64_t bar_size(unsigned index) const;
  bool bar_is64(unsigned index) const { return index == 0 || index == 2; }
  bool bar_prefetchable(unsigned index) const { return index == 0 || index == 2; }
  bool bar_is_io(unsigned index) const { return index == 4; }
  bool bar_present(unsigned index) const {
    return index == 0 || index == 2 || index == 4 || index == 5;
  }

private:
  std::uint32_t dword(std::uint32_t offset) const;
  void set_dword(std::uint32_t offset, std::uint32_t value);
  void write_dword(std::uint32_t offset, std::uint32_t value, std::uint32_t byte_mask);

  std::array<std::uint8_t, 4096> bytes_{};
};

} // namespace wavescope::hw::sim
