#pragma once
// A BAR mapped into our address space (a sysfs resourceN file, or any file that stands in for it):
// every register access is a single naturally aligned 32-bit volatile load or store
// (transport.md A.8), block accesses are loops of them.

#include <filesystem>

#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw {

class MappedMmio final : public Mmio {
public:
  // Maps `size` bytes of `file` shared, read-write (O_RDWR | O_SYNC). Throws wavescope::Error
  // (Device) naming the file and errno, with the kernel-lockdown hint for EPERM.
  MappedMmio(const std::filesystem::path &file, std::uint64_t size, std::string name = "BAR5");
  // Maps `size` bytes at `file_offset` of an open descriptor (e.g. a VFIO device region); the
  // descriptor is duplicated, the caller keeps its own.
  MappedMmio(int fd, std::uint64_t file_offset, std::uint64_t size, std::string name);
  ~MappedMmio() override;
  MappedMmio(const MappedMmio &) = delete;
  MappedMmio &operator=(const MappedMmio &) = delete;

  std::uint64_t size() const override { return size_; }
  std::uint32_t read32(std::uint64_t offset) override;
  void write32(std::uint64_t offset, std::uint32_t value) override;
  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) override;
  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) override;
  // Reads offset 0: a read completes only after the posted writes before it.
  void flush() override;
  const TransportStats &stats() const override { return stats_; }
  void set_trace_hook(MmioTraceHook hook) override { hook_ = std::move(hook); }

private:
  volatile std::uint32_t *at(std::uint64_t offset, std::uint64_t bytes, const char *what) const;

  std::string name_;
  int fd_ = -1;
  void *base_ = nullptr;
  std::uint64_t size_ = 0;
  TransportStats stats_;
  MmioTraceHook hook_;
};

}  // namespace wavescope::hw
