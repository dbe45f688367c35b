#pragma once
// Validation of a flash image before anything is written (navi31-flash.md §9.4, §10.12, §11):
// size, the 0x55AA55AA magic, both $PSP directories, the $SGN table, the ISH A/B slot ranges, the
// mirrored-halves pattern of a bad dump and the VBIOS device id. Each finding names its offset.
// Errors reject the image; warnings are facts a user should see but that real images may show
// (checksums whose algorithm is only known for the synthesized image, navi31-flash.md §12.11).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/ifwi/ifwi_layout.hpp"

namespace wavescope::hw::ifwi {

enum class FindingSeverity { Error, Warning };

struct ImageFinding {
  FindingSeverity severity = FindingSeverity::Error;
  std::uint64_t offset = 0;  // where in the image the problem is
  std::string message;       // starts with the offset, e.g. "0x002000: $PSP directory ..."
};

struct ImageCheckOptions {
  std::size_t expected_size = kNavi31ImageSize;
  std::uint16_t expected_vendor_id = 0x1002;
  std::uint16_t expected_device_id = kNavi31DeviceId;
};

struct ImageCheck {
  IfwiLayout layout;
  std::vector<ImageFinding> findings;

  bool accepted() const { return error_count() == 0; }
  std::size_t error_count() const;
  std::size_t warning_count() const;
  // The error messages joined by "; ".
  std::string error_summary() const;
  // Throws wavescope::Error (BadInput) naming every error, followed by `override_hint` (e.g.
  // "pass --force-image to write it anyway"), when the image is not accepted.
  void require_accepted(std::string_view override_hint = {}) const;
};

ImageCheck validate_flash_image(std::span<const std::uint8_t> image,
                                const ImageCheckOptions &options = {});

std::string_view to_string(FindingSeverity severity);

}  // namespace wavescope::hw::ifwi
