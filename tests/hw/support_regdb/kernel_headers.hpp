#pragma once
// The kernel's asic_reg headers for the register database's cross-checks: extracted once per build
// tree from Debian's linux-source-6.12 (/usr/src/linux-source-6.12.tar.xz) when it is installed.
// Absent package: the tests skip with a message (they never fail for it, also not under CI).

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wavescope::testing {

// The asic_reg directory with the 28 header pairs, or nullopt (and the reason) when the package is
// not installed.
std::optional<std::filesystem::path> kernel_asic_reg_dir(std::string &why_not);

// The 28 header pairs of am-driver.md §21.1: kernel dir and file stem ("gc", "gc_11_0_0").
const std::vector<std::pair<std::string, std::string>> &regdb_header_pairs();

// A second parse of one header pair, written apart from scripts/regdb/generate.py: it scans
// "#define NAME VALUE" lines token by token and takes each field's low bit from its __SHIFT define.
struct HeaderField {
  std::string name;
  std::uint64_t mask = 0;
  unsigned shift = 0;
  bool has_shift = false;
};
struct HeaderRegister {
  std::string name;  // with its reg/mm prefix
  std::uint64_t offset = 0;
  unsigned segment = 0;
  std::vector<HeaderField> fields;  // non-zero masks
};
std::vector<HeaderRegister> parse_header_pair(const std::filesystem::path &asic_reg,
                                              const std::string &dir, const std::string &stem);

}  // namespace wavescope::testing
