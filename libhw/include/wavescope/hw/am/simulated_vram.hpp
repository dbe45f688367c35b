#pragma once
// RAM-backed VRAM for tests and the simulator: a byte array of `size` bytes, stored sparsely in
// 4 KiB pages (untouched pages read as zero), so a 512 MiB board costs only what is written.
// Accesses outside [0, size) or not 8-byte aligned throw Error(Usage) naming the paddr.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <unordered_map>

#include "wavescope/hw/am/vram_access.hpp"

namespace wavescope::hw::am {

class SimulatedVram final : public VramAccess {
public:
  explicit SimulatedVram(std::uint64_t size);

  std::uint64_t read64(std::uint64_t paddr) const override;
  void write64(std::uint64_t paddr, std::uint64_t value) override;
  void zero(std::uint64_t paddr, std::uint64_t size) override;

  std::uint64_t size() const { return size_; }
  std::size_t pages_in_use() const { return pages_.size(); }

  // Dword and byte access (the fake GPU's BAR0 and its block models). Dwords are 4-byte
  // aligned; bytes may be anywhere inside the VRAM. Writing zeros to an untouched page keeps it
  // untouched.
  std::uint32_t read32(std::uint64_t paddr) const;
  void write32(std::uint64_t paddr, std::uint32_t value);
  void read_bytes(std::uint64_t paddr, std::span<std::uint8_t> out) const;
  void write_bytes(std::uint64_t paddr, std::span<const std::uint8_t> bytes);

  // Persistence: every page in use, in ascending paddr order, as 4096 bytes; and putting one
  // back (a page of zeros is dropped).
  void for_each_page(const std::function<void(std::uint64_t paddr,
                                              std::span<const std::uint8_t, 4096>)> &fn) const;
  void load_page(std::uint64_t paddr, std::span<const std::uint8_t, 4096> bytes);

private:
  using Page = std::array<std::uint64_t, 512>;
  void check(std::uint64_t paddr, std::uint64_t size, const char *what) const;

  std::uint64_t size_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;  // by paddr >> 12
};

}  // namespace wavescope::hw::am
