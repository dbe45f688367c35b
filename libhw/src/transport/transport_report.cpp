#include "wavescope/hw/transport/transport_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "transport/transport_stats_json.hpp"
#include "wavescope/base/json_line.hpp"

namespace wavescope::hw {

nlohmann::json transport_stats_json(const TransportStats &s) {
  return {{"operations", s.operations()},
          {"reads", s.reads},
          {"writes", s.writes},
          {"block_reads", s.block_reads},
          {"block_writes", s.block_writes},
          {"usb_requests", s.usb_requests},
          {"bytes_read", s.bytes_read},
          {"bytes_written", s.bytes_written}};
}

std::string to_json(const TransportStats &stats) { return json_line(transport_stats_json(stats)); }

std::string to_text(const TransportStats &s) {
  std::string text = fmt::format("{} transport operations ({} reads, {} writes, {} block reads, {} "
                                 "block writes)",
                                 s.operations(), s.reads, s.writes, s.block_reads, s.block_writes);
  if (s.usb_requests) text += fmt::format(", {} USB requests", s.usb_requests);
  return text;
}

std::string mmio_trace_header(std::string_view tool_command, std::string_view device) {
  return fmt::format("# {} on {}", tool_command, device);
}

std::string mmio_trace_line(Clock::TimePoint time, const MmioAccess &a) {
  static constexpr const char *kKinds[] = {"R32", "W32", "RBLK", "WBLK", "FLUSH"};
  return fmt::format("{} {} 0x{:05X} 0x{:08X} {}", time.time_since_epoch().count(),
                     kKinds[static_cast<int>(a.kind)], a.offset, a.value, a.length);
}

}  // namespace wavescope::hw
