#pragma once
// The register database (am-driver.md §4, §21.1): one table per kernel asic_reg header pair
// ("gc_11_0_0", "mp_11_0", ...) with every register (header name, dword offset, segment = its
// _BASE_IDX) and every field (name, lowest and highest bit). The tables are generated from
// linux-source-6.12 by scripts/regdb/generate.py, embedded in libhw and parsed on first use.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wavescope::hw::regs {

struct Field {
  std::string_view name;  // the header's spelling, e.g. "RB_BUFSZ"
  std::uint8_t lo = 0, hi = 0;
  unsigned width() const { return unsigned(hi) - lo + 1; }
  std::uint64_t mask() const;  // the bits lo..hi
  std::uint64_t max_value() const { return mask() >> lo; }
};

struct Register {
  std::string_view name;     // the header's spelling: "regGRBM_STATUS", "mmMP1_SMN_C2PMSG_66"
  std::string_view alias;    // CDNA hub-prefixed name without prefix ("GCVM_L2_CNTL"), or empty
  std::uint64_t offset = 0;  // dword offset within its segment (as the header has it)
  std::uint8_t segment = 0;  // the _BASE_IDX
  std::span<const Field> fields;
  // The name without "reg"/"mm": the UMR-style register name.
  std::string_view base_name() const;
  // The name to address it by on every generation: the alias when there is one, else base_name().
  std::string_view umr_name() const { return alias.empty() ? base_name() : alias; }
  // A field by name, case-insensitive; nullptr when absent.
  const Field *field(std::string_view name) const;
};

struct IpVersion {
  unsigned major = 0, minor = 0, revision = 0;
  auto operator<=>(const IpVersion &) const = default;
  std::string to_string() const;
};

struct HeaderDigest {
  std::string path;  // relative to asic_reg/, e.g. "gc/gc_11_0_0_offset.h"
  std::string sha256;
};

class RegisterTable {
public:
  // Parses a table's text (the generator's format); throws Error(BadInput) naming the line.
  RegisterTable(std::string name, std::string text);
  RegisterTable(const RegisterTable &) = delete;
  RegisterTable &operator=(const RegisterTable &) = delete;

  const std::string &name() const { return name_; }      // "gc_11_0_0"
  const std::string &family() const { return family_; }  // "gc", "mmhub", "osssys", ...
  IpVersion version() const { return version_; }
  const std::string &source() const { return source_; }  // "linux-source-6.12 6.12.118-1~deb12u1"
  const std::vector<HeaderDigest> &headers() const { return headers_; }
  std::span<const Register> registers() const { return registers_; }
  std::size_t field_count() const { return fields_.size(); }
  // By name, case-insensitive, with or without "reg"/"mm", or by its CDNA alias; nullptr when
  // absent.
  const Register *find(std::string_view name) const;

private:
  std::string name_, family_, source_, text_;
  IpVersion version_;
  std::vector<HeaderDigest> headers_;
  std::vector<Field> fields_;
  std::vector<Register> registers_;
  std::unordered_map<std::string, std::uint32_t> index_;  // upper-cased names -> register
};

// The embedded tables' names, sorted.
std::vector<std::string> register_table_names();
// An embedded table, parsed on first use (thread-safe); throws Error(Usage) for an unknown name.
const RegisterTable &register_table(std::string_view name);
// The uncompressed text of an embedded table (what the generator wrote).
std::string register_table_text(std::string_view name);

// Version selection (§4.2): among the tables of `family` with the same major version, the
// greatest version <= `version`; nullptr when there is none. SMU 13.0.7 uses 13.0.0's tables.
const RegisterTable *select_register_table(std::string_view family, IpVersion version);

}  // namespace wavescope::hw::regs
