#pragma once
// What `wavectl regs read|write --device D` report: the register (or field) of a device, its
// instance and dword address, and the value read — or written and read back — decoded into its
// fields. Printers: JSON (one object, one line) and text.

#include <cstdint>
#include <optional>
#include <string>

#include "wavescope/hw/regs/register_map.hpp"

namespace wavescope::hw::am {

struct RegisterIoReport {
  std::string device;
  regs::RegisterRef ref;  // a field ref shows that field only
  unsigned instance = 0;
  std::uint64_t address = 0;
  std::uint32_t value = 0;               // read (for a write: read back after it)
  std::optional<std::uint32_t> written;  // the register value a write stored
};

// {"device","ip","name","instance","address","value","written"?,"fields":[{"name","lo","hi",
// "value"}]}; address and values as numbers.
std::string to_json(const RegisterIoReport &report);
std::string to_text(const RegisterIoReport &report);

}  // namespace wavescope::hw::am
