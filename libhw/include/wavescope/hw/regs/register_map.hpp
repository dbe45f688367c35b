#pragma once
// A chip's registers (am-driver.md §4.2): which register table each IP block uses, chosen from the
// IP versions of its discovery table, and the bases that turn (segment, offset) into an address.
// Names are UMR-style: "ip.reg.field" (gc.GRBM_STATUS.ME0PIPE0_CMDFIFO_AVAIL), case-insensitive,
// the register with or without "reg"/"mm" (or by its CDNA hub-prefixed alias).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/am/ip_discovery.hpp"
#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::regs {

struct RegisterBlock {
  std::string name;  // "gc", "mmhub", "nbio", "mp0", "mp1", "hdp", "osssys", "sdma0"; or a
                     // table's name ("gc_11_0_0") in the all-tables map
  const RegisterTable *table = nullptr;
  IpVersion ip_version;  // from discovery (the table's own version in the all-tables map)
  // Per instance (in discovery order), the segment bases (dwords); empty in the all-tables map.
  std::vector<std::vector<std::uint64_t>> bases;
};

class RegisterMap {
public:
  // The blocks of a discovery table: GC (all XCCs), MMHUB (all AIDs), NBIO (nbio tables for
  // GC < 12, nbif from 12), MP0 (mp by MP0's version), MP1 (always mp_11_0: the SMU-mailbox alias
  // quirk), HDP, OSSSYS, SDMA0 (only 4.4.2 / 4.4.4). IPs without a table are left out.
  static RegisterMap from_discovery(const am::DiscoveryTable &table);
  // A fake chip profile's map ("navi31", "navi48", "mi300x", "tinygrad-mock"); throws Usage.
  static RegisterMap for_asic(std::string_view asic);
  // Every table, one block per table named by the table ("gc_11_0_0").
  static RegisterMap all_tables();

  std::span<const RegisterBlock> blocks() const { return blocks_; }
  const RegisterBlock *block(std::string_view name) const;  // case-insensitive; nullptr if absent
  const std::string &description() const { return description_; }  // "navi31", "all tables"

private:
  std::vector<RegisterBlock> blocks_;
  std::string description_;
};

// A register, or one of its fields, of a block.
struct RegisterRef {
  const RegisterBlock *block = nullptr;
  const Register *reg = nullptr;
  const Field *field = nullptr;  // nullptr: the whole register
};

// Resolves "ip.reg", "ip.reg.field", "reg" or "reg.field" (a name without ip must be in exactly
// one block). Throws Error(Usage) for an unknown block, register or field (with suggestions) and
// for an ambiguous name (listing the blocks that have it).
RegisterRef resolve_register(const RegisterMap &map, std::string_view name);

// Registers matching PATTERN, in block then header order. PATTERN is "[ip.]reg": ip is a block
// name or glob; reg with '*' or '?' is a case-insensitive glob over the name with or without
// prefix (and the CDNA alias), else a case-insensitive substring of it.
std::vector<RegisterRef> find_registers(const RegisterMap &map, std::string_view pattern);

// The dword address of a register of instance `instance`: bases[instance][segment] + offset.
// Throws Error(Usage) when the instance or the segment's base does not exist.
std::uint64_t register_address(const RegisterBlock &block, const Register &reg,
                               unsigned instance = 0);

// Case-insensitive glob with '*' and '?'.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace wavescope::hw::regs
