#pragma once
// How a transport's work is reported: its operation counts (JSON object and one text line) and
// the MMIO trace format (`--trace FILE`: one line per access, time on the device's clock).

#include <string>

#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw {

// {"operations","reads","writes","block_reads","block_writes","usb_requests","bytes_read",
// "bytes_written"}, one line.
std::string to_json(const TransportStats &stats);
// "N transport operations (R reads, W writes, BR block reads, BW block writes)[, U USB requests]"
std::string to_text(const TransportStats &stats);

// The trace file's first line for a command: "# wavectl COMMAND on DEVICE".
std::string mmio_trace_header(std::string_view tool_command, std::string_view device);
// "TIME_NS KIND 0xOFFSET 0xVALUE LENGTH" with KIND R32, W32, RBLK, WBLK or FLUSH.
std::string mmio_trace_line(Clock::TimePoint time, const MmioAccess &access);

}  // namespace wavescope::hw
