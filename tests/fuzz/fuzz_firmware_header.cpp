// Fuzz target: arbitrary bytes as an amdgpu firmware file of every kind (am-driver.md §9.7); the
// first byte also picks a kind and patches a valid header so the versioned parsers are reached.
// A wavescope::Error is a clean outcome; a crash or another exception is a bug.

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/firmware_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static const char *kinds[] = {"psp", "smc", "sdma", "gfx", "imu", "rlc"};
  for (const char *kind : kinds) {
    try {
      (void)wavescope::hw::am::parse_firmware_header({data, size}, kind);
    } catch (const wavescope::Error &) {
    }
  }
  if (size < 2) return 0;
  // The input with its size_bytes fixed up, so the checks after it are reached.
  std::vector<std::uint8_t> b(data + 1, data + size);
  if (b.size() >= 4)
    for (int i = 0; i < 4; ++i) b[i] = static_cast<std::uint8_t>(b.size() >> (8 * i));
  try {
    (void)wavescope::hw::am::parse_firmware_header(b, kinds[data[0] % 6]);
  } catch (const wavescope::Error &) {
  }
  return 0;
}
