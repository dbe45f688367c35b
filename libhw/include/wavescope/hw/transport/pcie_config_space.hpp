#pragma once
// A simulated PCIe type-0 function's configuration space: identity, COMMAND, BARs with their
// read-only low bits and sizing behaviour (all-ones write reads back the size mask), and an
// optional Resizable-BAR capability at 0x100 that sets BAR0's size. Simulated endpoints (the
// Navi31 board, test models) embed one, so BAR assignment and memory decoding behave the same
// behind the simulated bridge and on the direct sim-pci path.

#include <array>
#include <cstdint>
#include <optional>

#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw {

struct PcieBarSpec {
  std::uint64_t size = 0;  // 0 = not implemented
  bool is64 = false;
  bool prefetchable = false;
  bool is_io = false;
};

struct PcieFunctionIdentity {
  std::uint16_t vendor_id = 0;
  std::uint16_t device_id = 0;
  std::uint8_t revision = 0;
  std::uint32_t class_code = 0;  // 24 bits: base class, subclass, interface
  std::uint16_t subsystem_vendor_id = 0;
  std::uint16_t subsystem_id = 0;
  std::array<PcieBarSpec, 6> bars{};
  // Resizable BAR for BAR0: supported sizes as the capability dword's bits 31:4 (bit n+4 set =
  // 2^(n+20) bytes), and the size index (n) after reset.
  std::optional<std::uint32_t> rebar_supported;
  unsigned rebar_default_index = 0;
};

// Navi31 as navi31-flash.md §10.10 describes it: 1002:744C, display controller, BAR0 64-bit
// prefetchable (Resizable BAR, 256 MiB–32 GiB), BAR2 64-bit prefetchable 2 MiB, BAR4 I/O 256 bytes,
// BAR5 32-bit registers 1 MiB.
PcieFunctionIdentity navi31_pcie_identity();

class PcieConfigSpace {
public:
  static constexpr std::uint32_t kRebarCapability = 0x100;

  explicit PcieConfigSpace(PcieFunctionIdentity identity);

  // width 1, 2 or 4, inside one dword; offset < 4096. Out-of-range accesses read 0 / are ignored.
  std::uint32_t read(std::uint32_t offset, unsigned width) const;
  void write(std::uint32_t offset, std::uint32_t value, unsigned width);
  // Power-on state: BARs unassigned, COMMAND 0, Resizable BAR at its default size.
  void reset();

  std::uint64_t bar_size(unsigned index) const;
  std::uint64_t bar_address(unsigned index) const;
  BarInfo bar_info(unsigned index) const;
  bool memory_enabled() const { return (read(0x04, 2) & 0x2) != 0; }

  struct Hit {
    unsigned bar = 0;
    std::uint64_t offset = 0;
  };
  // The BAR (and offset in it) that claims a memory address: COMMAND.MEMORY set and the address
  // inside an assigned (non-zero) memory BAR.
  std::optional<Hit> decode_memory(std::uint64_t address) const;

  const PcieFunctionIdentity &identity() const { return identity_; }

private:
  std::uint32_t dword(std::uint32_t offset) const;
  void write_dword(std::uint32_t offset, std::uint32_t value, std::uint32_t byte_mask);
  std::uint32_t bar_dword_value(unsigned index, std::uint32_t stored) const;

  PcieFunctionIdentity identity_;
  std::array<std::uint32_t, 1024> regs_{};
  unsigned rebar_index_ = 0;
};

}  // namespace wavescope::hw
