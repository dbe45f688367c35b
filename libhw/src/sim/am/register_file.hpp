#pragma once
// The fake GPU's register space (am-driver.md §19.2 item 3): dword registers keyed by a register
// key, with per-register read and write hooks that block models install, and a trace of every
// access the driver made. A register without a hook stores what is written and reads it back; a
// register nobody wrote and no model owns reads 0 and is noted as unmodelled.
//
// Register key: the dword address as the driver computes it (bases[instance][segment] + offset),
// so AID 0 and single-die parts use plain MMIO indices; registers of another AID (MI300, reached
// through PCIE INDEX2 with that AID) carry the AID in bits 32..33, as the mi300x profile's bases
// do.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "wavescope/hw/am/register_trace.hpp"

namespace wavescope::hw::sim::am {

using RegisterKey = std::uint64_t;

// How an access reached the register file.
using AccessPath = hw::am::RegisterAccessPath;

class RegisterFile {
public:
  // A read hook returns the value the driver sees; `stored` is the register's stored value.
  using ReadHook = std::function<std::uint32_t(RegisterKey key, std::uint32_t stored)>;
  // A write hook runs after the value is stored; `old` is the value stored before.
  using WriteHook = std::function<void(RegisterKey key, std::uint32_t value, std::uint32_t old)>;

  // Hooks of one register. A second model hooking the same register chains after the first
  // (reads: the later hook sees the earlier hook's result as `stored`; writes: both run in
  // order of installation).
  void on_read(RegisterKey key, ReadHook hook, std::string owner);
  void on_write(RegisterKey key, WriteHook hook, std::string owner);
  // Marks a register as modelled without a hook (plain storage is its whole behaviour).
  void own(RegisterKey key, std::string owner);
  std::string owner(RegisterKey key) const;  // "" when nobody owns it

  // What the driver does: hooks run, the access is traced.
  std::uint32_t read(RegisterKey key, AccessPath path = AccessPath::Direct);
  void write(RegisterKey key, std::uint32_t value, AccessPath path = AccessPath::Direct);

  // What models do: plain storage, no hooks, no trace.
  std::uint32_t peek(RegisterKey key) const;
  void poke(RegisterKey key, std::uint32_t value);
  bool stored(RegisterKey key) const { return values_.count(key) != 0; }

  // Clears every stored value (a reset); hooks and owners stay.
  void clear_values();

  // The trace of driver accesses (on by default; cleared by take_trace()).
  void enable_trace(bool on) { trace_on_ = on; }
  const std::vector<hw::am::RegisterAccess> &trace() const { return trace_; }
  std::vector<hw::am::RegisterAccess> take_trace();
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }

  // Registers read before anything wrote them and without an owner ("unknown").
  const std::set<RegisterKey> &unmodelled() const { return unmodelled_; }

  // Persistence of the stored values (hooks are code, they are installed again on load).
  nlohmann::json save() const;
  void load(const nlohmann::json &json);

private:
  struct Hooks {
    std::vector<ReadHook> reads;
    std::vector<WriteHook> writes;
    std::string owner;
  };
  Hooks &hooks_of(RegisterKey key, const std::string &owner);

  std::unordered_map<RegisterKey, std::uint32_t> values_;
  std::unordered_map<RegisterKey, Hooks> hooks_;
  std::set<RegisterKey> unmodelled_;
  std::vector<hw::am::RegisterAccess> trace_;
  bool trace_on_ = true;
  std::uint64_t reads_ = 0, writes_ = 0;
};

}  // namespace wavescope::hw::sim::am
