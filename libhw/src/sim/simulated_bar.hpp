#pragma once
// A BAR of a simulated PCIe function as the native transports present one: every access is
// checked to be whole dwords inside the BAR, charged the cost of one transport operation on the
// simulator's clock, counted in the stats and handed to the trace hook — around the model's own
// dword read and write (a block is a loop of dwords unless the model has its own).

#include <string>

#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::sim {

class SimulatedBar : public Mmio {
public:
  // `name` starts the error of a bad access ("sim-am:g BAR0").
  SimulatedBar(std::string name, Clock &clock) : name_(std::move(name)), clock_(clock) {}

  std::uint32_t read32(std::uint64_t offset) final;
  void write32(std::uint64_t offset, std::uint32_t value) final;
  std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) final;
  void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) final;
  void flush() override {}
  const TransportStats &stats() const final { return stats_; }
  void set_trace_hook(MmioTraceHook hook) final { hook_ = std::move(hook); }

protected:
  virtual Clock::Duration op_cost() const = 0;
  virtual std::uint32_t model_read32(std::uint64_t offset) = 0;
  virtual void model_write32(std::uint64_t offset, std::uint32_t value) = 0;
  virtual std::vector<std::uint32_t> model_read_block(std::uint64_t offset, std::size_t dwords);

private:
  void begin(std::uint64_t offset, std::uint64_t length, const char *what);
  void trace(MmioAccess::Kind kind, std::uint64_t offset, std::uint32_t value,
             std::uint64_t length);

  std::string name_;
  Clock &clock_;
  TransportStats stats_;
  MmioTraceHook hook_;
};

}  // namespace wavescope::hw::sim
