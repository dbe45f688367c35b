#pragma once
// A chip profile's register map, IP versions and a register bus stub with a virtual clock: what
// the AM block tests drive the GMC/IH/GFX/SDMA sequences against.

#include <functional>
#include <memory>
#include <string>

#include "support_am/register_bus_stub.hpp"
#include "wavescope/hw/am/block_registers.hpp"
#include "wavescope/hw/am/ip_discovery.hpp"
#include "wavescope/hw/regs/register_map.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::test {

// The mi300x profile gives the two XCCs of an AID the same segment 0, 2 and 3 bases, so their
// registers alias; a real MI300X has per-XCC bases. This patch moves every XCC's segments apart.
inline void distinct_xcc_bases(hw::am::DiscoveryTable &t) {
  for (auto &die : t.dies)
    for (auto &ip : die.ips)
      if (ip.hw_id == 11)
        for (auto &b : ip.bases) b += 0x100'0000ull * ip.instance;
}

struct AmChipFixture {
  using Patch = std::function<void(hw::am::DiscoveryTable &)>;
  // `patch` edits the parsed discovery table before the register map is built (for IP
  // instances and segments a profile lacks).
  explicit AmChipFixture(const std::string &profile, const Patch &patch = {})
      : discovery(patched(profile, patch)), map(hw::regs::RegisterMap::from_discovery(discovery)),
        chip(hw::am::chip_info_from_discovery(discovery)), regs(bus, map, clock) {}

  static hw::am::DiscoveryTable patched(const std::string &profile, const Patch &patch) {
    auto table =
        hw::am::parse_ip_discovery(hw::am::build_discovery_rom(hw::am::chip_profile(profile)));
    if (patch) patch(table);
    return table;
  }

  std::uint64_t addr(std::string_view name, unsigned inst = 0) const {
    return regs.address(name, inst);
  }
  std::optional<std::uint32_t> last(std::string_view name, unsigned inst = 0) const {
    return bus.last_write(addr(name, inst));
  }
  // Makes `name` read `value` whatever was written.
  void reads(std::string_view name, std::uint32_t value, unsigned inst = 0) {
    bus.read_hooks[addr(name, inst)] = [value](std::uint32_t) { return value; };
  }

  hw::am::DiscoveryTable discovery;
  hw::regs::RegisterMap map;
  hw::am::AmChipInfo chip;
  RegisterBusStub bus;
  hw::VirtualClock clock;
  hw::am::AmRegisters regs;
};

}  // namespace wavescope::test
