#pragma once
// The AM driver's device object (am-driver.md §1.3, §2, §3.1, §4, §14.3): an opened PciFunction
// with its BARs mapped (BAR0 VRAM, BAR2 doorbells, BAR5 registers), the IP discovery table read
// from VRAM top - 64 KiB (through BAR0 on a large BAR, else through MM_INDEX/MM_DATA), the
// register map built from it, and register access by name ("gc.SCRATCH_REG7", instance
// selection) or by dword address — directly, through RSMU INDEX/DATA beyond BAR5, or through
// PCIE INDEX2 for another AID —, read-modify-write by fields, waits with timeouts that name the
// register and the values, VRAM access, and a trace of every register access it made.
//
// Nothing here decides to write: callers do. Real hardware is untested (tier 2).

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wavescope/hw/am/ip_discovery.hpp"
#include "wavescope/hw/am/register_trace.hpp"
#include "wavescope/hw/regs/register_map.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/pci_function.hpp"

namespace wavescope::hw::am {

using Fields = std::initializer_list<std::pair<std::string_view, std::uint64_t>>;

struct AmDeviceOptions {
  bool verify_discovery_checksums = false;  // AM does not verify them
  bool record_trace = true;
  // Between two reads of a wait (the first read is immediate). tinygrad busy-polls; a pause
  // keeps a timed-out wait to a bounded number of accesses.
  Clock::Duration poll_interval = std::chrono::microseconds(100);
};

class AmDevice {
public:
  static constexpr std::uint64_t kDiscoveryOffsetFromTop = 64 << 10;
  static constexpr std::uint64_t kDiscoverySize = 10 << 10;

  // Maps the BARs, reads RCC_CONFIG_MEMSIZE and the discovery table, builds the register map.
  // Throws Error(BadInput) for a table with bad signatures, Error(Device) for a device whose
  // memory size reads 0 or all ones.
  AmDevice(PciFunction &function, Clock &clock, AmDeviceOptions options = {});
  ~AmDevice();
  AmDevice(const AmDevice &) = delete;
  AmDevice &operator=(const AmDevice &) = delete;

  PciFunction &function() { return function_; }
  Clock &clock() { return clock_; }
  Mmio &vram_bar() { return *vram_; }
  Mmio &doorbell_bar() { return *doorbells_; }
  Mmio &mmio() { return *mmio_; }

  std::uint64_t vram_size() const { return vram_size_; }
  bool large_bar() const { return large_bar_; }
  // 384 MiB on GC 9.4.x/9.5.x, else 64 MiB: the top of VRAM that is never allocated (§3.1).
  std::uint64_t reserved_vram_size() const;
  const DiscoveryTable &discovery() const { return discovery_; }
  const std::vector<std::uint8_t> &discovery_bytes() const { return discovery_bytes_; }
  const regs::RegisterMap &registers() const { return map_; }
  // A HWIP's version from discovery ("GC", "MP0", "MP1", "SDMA0", "NBIO", "MMHUB", ...; case-
  // insensitive); {0,0,0} when absent.
  regs::IpVersion ip_version(std::string_view hwip) const;
  // Non-harvested GC instances (XCCs).
  unsigned xcc_count() const;
  // Instances of a register block ("gc", "mmhub", ...); 0 when absent.
  unsigned instances(std::string_view block) const;

  // --- registers by name ---
  const regs::RegisterRef &reg(std::string_view name) const;  // Error(Usage) when unknown
  bool has_register(std::string_view name) const;
  std::uint64_t address(std::string_view name, unsigned instance = 0) const;
  std::uint32_t rreg(std::string_view name, unsigned instance = 0);
  void wreg(std::string_view name, std::uint32_t value, unsigned instance = 0);
  // Writes the fields' encoding (every other bit 0), plus `base`.
  std::uint32_t wreg_fields(std::string_view name, Fields fields, unsigned instance = 0,
                            std::uint32_t base = 0);
  // Read, replace the named fields, write (§4.1); returns the value written.
  std::uint32_t update(std::string_view name, Fields fields, unsigned instance = 0);
  // One field's value.
  std::uint64_t rfield(std::string_view name, std::string_view field, unsigned instance = 0);

  // --- registers by dword address ---
  // Direct below BAR5's size, RSMU above it; an address with bits 32..33 set (another AID)
  // through PCIE INDEX2 with that AID.
  std::uint32_t read_dword(std::uint64_t address);
  void write_dword(std::uint64_t address, std::uint32_t value);
  // PCIE INDEX2 with an explicit AID (§2): address*4 + ((aid & 3) << 32 | 1 << 34) when aid > 0.
  void write_dword_index2(std::uint64_t address, std::uint32_t value, unsigned aid);
  std::uint32_t read_dword_index2(std::uint64_t address, unsigned aid);

  // --- waits (§14.3) ---
  // Polls until (read & mask) == value; Error(Timeout) naming `what`, the register, its address,
  // the condition and the last value read.
  std::uint32_t wait_reg(std::string_view name, std::uint32_t mask, std::uint32_t value,
                         Clock::Duration timeout, std::string_view what, unsigned instance = 0);
  // Polls `done` until it returns true; Error(Timeout) "<device>: <what> (timeout after N s:
  // <what describe says about the last state>)".
  void wait_until(const std::function<bool()> &done, Clock::Duration timeout, std::string_view what,
                  const std::function<std::string()> &describe = {});

  // --- VRAM (paddr = byte offset in VRAM) ---
  // Through BAR0 where it reaches, else the MM_INDEX/MM_DATA window (small BAR).
  void read_vram(std::uint64_t paddr, std::span<std::uint8_t> out);
  void write_vram(std::uint64_t paddr, std::span<const std::uint8_t> bytes);
  std::uint32_t read_vram32(std::uint64_t paddr);
  void write_vram32(std::uint64_t paddr, std::uint32_t value);
  void zero_vram(std::uint64_t paddr, std::uint64_t size);

  // --- PCI ---
  std::uint16_t pci_command();
  // COMMAND.bus-master set or cleared, written then read back as a flush (§5.3).
  void set_bus_master(bool on);

  // --- trace ---
  const std::vector<RegisterAccess> &trace() const { return trace_; }
  void clear_trace() { trace_.clear(); }
  void set_trace(bool on) { options_.record_trace = on; }
  const RegisterNamer &namer() const;
  std::string trace_text() const { return format_register_trace(trace_, &namer()); }

private:
  void read_discovery();
  void record(bool write, std::uint64_t address, std::uint32_t value, RegisterAccessPath path);
  std::uint32_t raw_read(std::uint64_t address);
  void raw_write(std::uint64_t address, std::uint32_t value);
  std::uint64_t bar0_reach() const;

  PciFunction &function_;
  Clock &clock_;
  AmDeviceOptions options_;
  Mmio *vram_ = nullptr;
  Mmio *doorbells_ = nullptr;
  Mmio *mmio_ = nullptr;
  std::uint64_t mmio_dwords_ = 0;
  std::uint64_t vram_size_ = 0;
  bool large_bar_ = false;
  std::vector<std::uint8_t> discovery_bytes_;
  DiscoveryTable discovery_;
  regs::RegisterMap map_;
  mutable std::unique_ptr<RegisterNamer> namer_;
  struct NameCache;
  std::unique_ptr<NameCache> names_;
  std::vector<RegisterAccess> trace_;
  // Indirection registers (0 = absent).
  std::uint64_t rsmu_index_ = 0, rsmu_data_ = 0;
  std::uint64_t index2_ = 0, index2_hi_ = 0, data2_ = 0;
};

}  // namespace wavescope::hw::am
