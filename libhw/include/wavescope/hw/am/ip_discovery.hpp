#pragma once
// The IP discovery binary (am-driver.md §3.2): binary header, IP discovery header (versions 1-4,
// 32- or 64-bit bases), dies and IP entries, the harvest table and the GC info table (v1.0-1.3,
// v2.0-2.1). Bad input throws Error(BadInput) naming the byte offset and expected vs found value.
// A synthetic ROM builder (§3.3 layout) makes tables for tests and the fake device.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace wavescope::hw::am {

inline constexpr std::uint32_t kBinarySignature = 0x28211407;
inline constexpr std::uint32_t kIpDiscoverySignature = 0x53445049;  // "IPDS"
inline constexpr std::uint32_t kHarvestSignature = 0x56524148;      // "HARV"

struct IpEntry {
  std::uint16_t hw_id = 0;
  std::uint8_t instance = 0;
  std::uint8_t major = 0, minor = 0, revision = 0;
  std::vector<std::uint64_t> bases;
};

struct Die {
  std::uint16_t die_id = 0;
  std::vector<IpEntry> ips;
};

struct HarvestEntry {
  std::uint16_t hw_id = 0;
  std::uint8_t instance = 0;
};

struct GcInfo {
  std::uint16_t version_major = 0, version_minor = 0;
  std::vector<std::pair<std::string, std::uint32_t>> fields;  // in table order, "gc_num_se", ...
  std::uint32_t field(const std::string &name) const;         // throws BadInput when absent
};

struct DiscoveryTable {
  std::uint16_t binary_version_major = 0, binary_version_minor = 0;
  std::uint16_t ip_version = 0;
  bool base_addr_64_bit = false;
  std::vector<Die> dies;
  std::vector<HarvestEntry> harvest;
  bool has_gc_info = false;
  GcInfo gc_info;
};

struct ParseOptions {
  bool verify_checksums = true;  // AM does not verify; amdgpu does
};

DiscoveryTable parse_ip_discovery(std::span<const std::uint8_t> bytes,
                                  const ParseOptions &options = {});

// The HWIP names (amdgpu's enum, §3.2 table) a hardware id maps to; empty when unknown.
std::vector<std::string> hwip_names(std::uint16_t hw_id);

// A chip profile for the synthetic builder.
struct ChipProfile {
  std::string name;
  bool base_addr_64_bit = false;
  unsigned pad_bases = 0;  // write at least this many bases per entry (tinygrad's mock: 10)
  std::vector<Die> dies;
  std::vector<HarvestEntry> harvest;
  std::uint16_t gc_major = 2, gc_minor = 1;
  std::vector<std::uint32_t> gc_values;  // in field order; missing ones 0
};

// "tinygrad-mock", "navi31", "navi48", "mi300x", "mi300x-harvest". Throws Usage when unknown.
ChipProfile chip_profile(const std::string &name);
std::vector<std::string> chip_profile_names();
std::vector<std::uint8_t> build_discovery_rom(const ChipProfile &profile);
// The GC info field names of a version; empty when the version is unknown.
std::vector<std::string> gc_info_field_names(std::uint16_t major, std::uint16_t minor);

}  // namespace wavescope::hw::am
