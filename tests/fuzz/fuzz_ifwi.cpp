// Fuzz target: arbitrary bytes as a Navi31 IFWI image through parsing, validation and item
// resolution. Findings and wavescope::Error are clean outcomes; a crash or another exception is a
// bug. Short inputs are also spliced into the synthesized image at an offset taken from the first
// bytes, so the fuzzer reaches the deep structures of a mostly valid 2 MiB image.

#include <cstdint>
#include <cstring>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/ifwi/ifwi_items.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

namespace {

void exercise(std::span<const std::uint8_t> image) {
  using namespace wavescope::hw::ifwi;
  const auto check = validate_flash_image(image);
  (void)check.error_summary();
  for (const auto &r : resolve_all_ifwi_items(image))
    if (r.resolved && r.resolved->offset + r.resolved->size > image.size()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static const std::vector<std::uint8_t> base = wavescope::hw::ifwi::make_test_ifwi_image();
  try {
    exercise({data, size});
    if (size >= 4 && size <= 4096) {
      // Splice into the structured first 0x14000 bytes or an ISH/partition area.
      std::uint32_t at = 0;
      std::memcpy(&at, data, 4);
      at %= 0x14000 + (at & 0x80000000u ? 0x1EC000u : 0u);
      std::vector<std::uint8_t> image = base;
      std::memcpy(image.data() + at, data + 4, std::min<std::size_t>(size - 4, image.size() - at));
      exercise(image);
    }
  } catch (const wavescope::Error &) {
  }
  return 0;
}
