#pragma once
// What the GMC, HDP, IH, GFX and SDMA blocks of the AM driver need of a device: dword register
// access (and the PCIE INDEX2 path to other AIDs on MI300, §2), the register map that turns
// "ip.REG" names into addresses per instance (§4), the IP versions and instance counts, and a
// clock for the §14.3 waits. The device (or a test) provides the bus; AmRegisters adds names,
// fields, pairs and waits on top.

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "wavescope/hw/regs/register_map.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::hw::am {

class AmRegisterBus {
public:
  virtual ~AmRegisterBus() = default;
  virtual std::uint32_t read(std::uint64_t dword_address) = 0;
  virtual void write(std::uint64_t dword_address, std::uint32_t value) = 0;
  // A write to another AID's copy of a register through BIF_BX0_PCIE_INDEX2/DATA2 (§2; aid > 0
  // on NBIO 7.9). The default refuses: only multi-AID devices have it.
  virtual void write_aid(std::uint64_t dword_address, std::uint32_t value, unsigned aid);
};

// The IP versions and instance counts the blocks branch on (from discovery).
struct AmChipInfo {
  regs::IpVersion gc, sdma, nbio, osssys, hdp, mmhub, mp0;
  unsigned xccs = 1;            // non-harvested GC instances
  unsigned mmhubs = 1;          // MMHUB instances (AIDs)
  unsigned sdma_instances = 1;  // SDMA0 instances in discovery (16 on a real MI300X)
};
// From a discovery table (first die's versions; XCCs without the harvested GC instances).
AmChipInfo chip_info_from_discovery(const DiscoveryTable &table);

using FieldValues = std::initializer_list<std::pair<std::string_view, std::uint64_t>>;

class AmRegisters {
public:
  AmRegisters(AmRegisterBus &bus, const regs::RegisterMap &map, Clock &clock);

  // "gc.CP_HQD_ACTIVE" (ip.REG as regs::resolve_register reads it), instance `inst`.
  std::uint64_t address(std::string_view name, unsigned inst = 0) const;
  bool has(std::string_view name) const;
  const regs::Register &reg(std::string_view name) const;

  std::uint32_t read(std::string_view name, unsigned inst = 0);
  void write(std::string_view name, std::uint32_t value, unsigned inst = 0);
  // The value of these fields over 0 (tinygrad's reg.write(**fields)), written whole.
  std::uint32_t write_fields(std::string_view name, FieldValues fields, unsigned inst = 0);
  std::uint32_t write_fields(std::string_view name, std::uint32_t base, FieldValues fields,
                             unsigned inst = 0);
  // Read, replace the named fields, write (§4.1 update). Returns the value written.
  std::uint32_t update(std::string_view name, FieldValues fields, unsigned inst = 0);
  std::uint32_t encode(std::string_view name, FieldValues fields) const;
  std::uint64_t field(std::string_view name, std::string_view field, std::uint32_t value) const;
  // A 64-bit value over two registers: name + lo_suffix gets the low half, name + hi_suffix the
  // high half (tinygrad's wreg_pair).
  void write_pair(std::string_view name, std::string_view lo_suffix, std::string_view hi_suffix,
                  std::uint64_t value, unsigned inst = 0);
  // By dword address (the MQD image, the HDP flush register).
  std::uint32_t read_address(std::uint64_t address) { return bus_.read(address); }
  void write_address(std::uint64_t address, std::uint32_t value) { bus_.write(address, value); }
  void write_aid(std::string_view name, std::uint32_t value, unsigned aid);

  // Polls until (read & mask) == value; after `timeout` throws Error(Timeout) with `what`, the
  // register's name, address and last value in hex.
  void wait(std::string_view name, std::uint32_t mask, std::uint32_t value, unsigned inst,
            std::string_view what, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Polls `done` until true, for conditions over several registers.
  template <class Done>
  void wait_until(Done done, std::string_view what,
                  std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto start = clock_.now();
    while (!done()) {
      if (clock_.now() - start >= timeout) throw_timeout(what, timeout);
      clock_.sleep(kPollInterval);
    }
  }
  void sleep(std::chrono::milliseconds duration) { clock_.sleep(duration); }

  const regs::RegisterMap &map() const { return map_; }
  Clock &clock() { return clock_; }
  AmRegisterBus &bus() { return bus_; }

  static constexpr std::chrono::microseconds kPollInterval{100};

private:
  [[noreturn]] void throw_timeout(std::string_view what, std::chrono::milliseconds timeout) const;

  AmRegisterBus &bus_;
  const regs::RegisterMap &map_;
  Clock &clock_;
};

}  // namespace wavescope::hw::am
