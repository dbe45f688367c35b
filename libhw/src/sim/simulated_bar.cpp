// A simulated function's BAR (simulated_bar.hpp).

#include "sim/simulated_bar.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim {

std::uint32_t SimulatedBar::read32(std::uint64_t offset) {
  begin(offset, 4, "read32");
  ++stats_.reads;
  stats_.bytes_read += 4;
  const std::uint32_t value = model_read32(offset);
  trace(MmioAccess::Kind::Read32, offset, value, 4);
  return value;
}

void SimulatedBar::write32(std::uint64_t offset, std::uint32_t value) {
  begin(offset, 4, "write32");
  ++stats_.writes;
  stats_.bytes_written += 4;
  model_write32(offset, value);
  trace(MmioAccess::Kind::Write32, offset, value, 4);
}

std::vector<std::uint32_t> SimulatedBar::read_block(std::uint64_t offset, std::size_t dwords) {
  begin(offset, 4 * dwords, "read_block");
  ++stats_.block_reads;
  stats_.bytes_read += 4 * dwords;
  auto out = model_read_block(offset, dwords);
  trace(MmioAccess::Kind::ReadBlock, offset, out.empty() ? 0 : out[0], 4 * dwords);
  return out;
}

void SimulatedBar::write_block(std::uint64_t offset, std::span<const std::uint32_t> values) {
  begin(offset, 4 * values.size(), "write_block");
  ++stats_.block_writes;
  stats_.bytes_written += 4 * values.size();
  for (std::size_t i = 0; i < values.size(); ++i) model_write32(offset + 4 * i, values[i]);
  trace(MmioAccess::Kind::WriteBlock, offset, values.empty() ? 0 : values[0], 4 * values.size());
}

std::vector<std::uint32_t> SimulatedBar::model_read_block(std::uint64_t offset,
                                                          std::size_t dwords) {
  std::vector<std::uint32_t> out(dwords);
  for (std::size_t i = 0; i < dwords; ++i) out[i] = model_read32(offset + 4 * i);
  return out;
}

void SimulatedBar::begin(std::uint64_t offset, std::uint64_t length, const char *what) {
  if (offset % 4 != 0 || length % 4 != 0 || length == 0 || offset > size() ||
      length > size() - offset)
    throw Error(ErrorKind::Internal,
                fmt::format("{} {} at 0x{:X} of {} bytes is not dword-aligned inside the "
                            "0x{:X}-byte BAR",
                            name_, what, offset, length, size()));
  const auto cost = op_cost();
  clock_.sleep(cost);
  stats_.latency_ns += static_cast<std::uint64_t>(cost.count());
}

void SimulatedBar::trace(MmioAccess::Kind kind, std::uint64_t offset, std::uint32_t value,
                         std::uint64_t length) {
  if (hook_) hook_(MmioAccess{kind, offset, value, static_cast<std::uint32_t>(length)});
}

}  // namespace wavescope::hw::sim
