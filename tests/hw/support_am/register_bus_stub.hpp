#pragma once
// An in-memory AmRegisterBus for the AM block tests: stored values (0 until written), an access
// trace, per-address read overrides (a status register that reads 1), and helpers that find the
// writes to a named register. Not the fake GPU: no block behaviour beyond what a test installs.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "wavescope/hw/am/block_registers.hpp"

namespace wavescope::test {

struct BusAccess {
  bool write = false;
  std::uint64_t address = 0;
  std::uint32_t value = 0;
  unsigned aid = 0;
};

class RegisterBusStub final : public hw::am::AmRegisterBus {
public:
  std::uint32_t read(std::uint64_t address) override {
    std::uint32_t v = value(address);
    if (auto it = read_hooks.find(address); it != read_hooks.end()) v = it->second(v);
    trace.push_back({false, address, v, 0});
    return v;
  }
  void write(std::uint64_t address, std::uint32_t v) override {
    trace.push_back({true, address, v, 0});
    if (auto it = write_hooks.find(address); it != write_hooks.end()) v = it->second(v);
    values[address] = v;
  }
  void write_aid(std::uint64_t address, std::uint32_t v, unsigned aid) override {
    trace.push_back({true, address, v, aid});
  }

  std::uint32_t value(std::uint64_t address) const {
    auto it = values.find(address);
    return it == values.end() ? 0 : it->second;
  }
  // Every value written to `address` (AID 0), in order.
  std::vector<std::uint32_t> writes_to(std::uint64_t address) const {
    std::vector<std::uint32_t> out;
    for (const auto &a : trace)
      if (a.write && a.address == address && a.aid == 0) out.push_back(a.value);
    return out;
  }
  std::optional<std::uint32_t> last_write(std::uint64_t address) const {
    const auto w = writes_to(address);
    if (w.empty()) return std::nullopt;
    return w.back();
  }
  // Index in the trace of the first write to `address` at or after `from`; -1 when none.
  long index_of_write(std::uint64_t address, std::size_t from = 0) const {
    for (std::size_t i = from; i < trace.size(); ++i)
      if (trace[i].write && trace[i].address == address) return static_cast<long>(i);
    return -1;
  }

  std::map<std::uint64_t, std::uint32_t> values;
  std::vector<BusAccess> trace;
  // Returns the value a read sees, given the stored one.
  std::map<std::uint64_t, std::function<std::uint32_t(std::uint32_t)>> read_hooks;
  // Returns the value stored, given the one written.
  std::map<std::uint64_t, std::function<std::uint32_t(std::uint32_t)>> write_hooks;
};

}  // namespace wavescope::test
