#pragma once
// Progress reporting from long library operations (flash writes, large trace decodes) to whoever
// shows it. Libraries call the sink; the CLI turns it into a progress line with ETA.

#include <cstdint>
#include <functional>
#include <string_view>

namespace wavescope {

struct ProgressUpdate {
  std::string_view stage;   // e.g. "erase", "program", "verify", "decode"
  std::uint64_t done = 0;   // units finished in this stage
  std::uint64_t total = 0;  // units in this stage (0 when unknown)
  std::string_view unit;    // e.g. "bytes", "sectors"
};

using ProgressSink = std::function<void(const ProgressUpdate &)>;

}  // namespace wavescope
