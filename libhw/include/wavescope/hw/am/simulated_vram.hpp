#pragma once
// RAM-backed VRAM for tests and the simulator: a byte array of `size` bytes, stored sparsely in
// 4 KiB pages (untouched pages read as zero), so a 512 MiB board costs only what is written.
// Accesses outside [0, size) or not 8-byte aligned throw Error(Usage) naming the paddr.

#include <array>
#include <cstdint>
#include <memory>
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

private:
  using Page = std::array<std::uint64_t, 512>;
  void check(std::uint64_t paddr, std::uint64_t size, const char *what) const;

  std::uint64_t size_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;  // by paddr >> 12
};

}  // namespace wavescope::hw::am
