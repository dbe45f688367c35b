// Fuzz target: arbitrary bytes as a Navi31 IFWI image through parsing, validation and item
// resolution. Findings and wavescope::Error are clean outcomes; a crash or another exception is a
// bug. Whole 2 MiB inputs are slow to mutate, so besides the input itself as an image, the input
// drives edits of the synthesized valid image: a list of (offset, bytes) patches aimed at the
// structured areas (EFS header, $PSP/$SGN directories, ISH slots) or anywhere, applied in place
// and undone afterwards, so one execution costs a validation, not a 2 MiB copy. The first byte
// picks how much of the image the reader sees: a table's entry count can only claim what fits, so
// on a short image a garbage count costs thousands of entries, not the 131,000 of 2 MiB, and the
// whole image is one choice in eight.

#include <algorithm>
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

// The synthesized image, edited by patches and restored after each input.
class PatchedImage {
public:
  PatchedImage() : image_(wavescope::hw::ifwi::make_test_ifwi_image()) {}

  // u8 length choice (kLengths), then patch records: u8 flags, u24 offset, u8 length, then that
  // many bytes. Flag bit 0 aims the offset at the first 0x14000 bytes (headers and directories)
  // instead of the whole image; bit 1 truncates the image at the offset instead of writing.
  std::span<const std::uint8_t> apply(const std::uint8_t *data, std::size_t size) {
    std::size_t length = image_.size();
    if (size > 0) {
      // Headers and ISH slots only; partition A (at 0x20000) cut before, inside and after its
      // VBIOS (0x30000..0x40000); partition B (at 0x100000) cut in its VBIOS; the whole image.
      constexpr std::size_t kLengths[8] = {0x14000, 0x20000, 0x28000,  0x30000,
                                           0x38000, 0x40000, 0x118000, 0};
      if (kLengths[data[0] & 7] != 0) length = std::min(length, kLengths[data[0] & 7]);
      ++data;
      --size;
    }
    while (size >= 5 && undo_.size() < 64) {
      const std::uint8_t flags = data[0];
      std::uint32_t at = data[1] | data[2] << 8 | data[3] << 16;
      at %= (flags & 1) ? 0x14000u : static_cast<std::uint32_t>(image_.size());
      const std::size_t n = std::min({std::size_t{data[4]}, size - 5, image_.size() - at});
      if (flags & 2) {
        length = std::min<std::size_t>(length, at);
      } else if (n > 0) {  // memcpy of nothing from an empty vector's null data() is UB
        undo_.push_back(
            {at, std::vector<std::uint8_t>(image_.begin() + at, image_.begin() + at + n)});
        std::memcpy(image_.data() + at, data + 5, n);
      }
      data += 5 + n;
      size -= 5 + n;
    }
    return {image_.data(), length};
  }

  void restore() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it)
      std::memcpy(image_.data() + it->first, it->second.data(), it->second.size());
    undo_.clear();
  }

private:
  std::vector<std::uint8_t> image_;
  std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> undo_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  static PatchedImage patched;
  try {
    exercise({data, size});
    exercise(patched.apply(data, size));
  } catch (const wavescope::Error &) {
  }
  patched.restore();
  return 0;
}
