#pragma once
// What `regs find` and `regs decode` report, and their printers (JSON: one object per line; text).

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/hw/regs/register_map.hpp"

namespace wavescope::hw::regs {

struct RegisterFindReport {
  std::string pattern;
  std::string scope;  // the map's description: "navi31", "all tables"
  std::vector<RegisterRef> matches;
};
// One object per register and line: {"ip","table","name","offset","segment","fields":[{"name",
// "lo","hi"}]}, with the header's spelling and the dword offset; nothing when nothing matched.
std::string to_json(const RegisterFindReport &report);
std::string to_text(const RegisterFindReport &report);

struct RegisterDecodeReport {
  RegisterRef ref;  // a field ref decodes that field only
  std::uint64_t value = 0;
};
// {"ip","table","name","offset","segment","value","fields":[{"name","lo","hi","value"}]}.
// Throws Error(Usage) when the value is wider than the register.
std::string to_json(const RegisterDecodeReport &report);
std::string to_text(const RegisterDecodeReport &report);

}  // namespace wavescope::hw::regs
