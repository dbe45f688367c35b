#pragma once
// What `ifwi inspect` and `ifwi make-test-image` report about an image, and the printers for it:
// JSON (one object, one line) and text. The tool picks the printer; the library prints.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wavescope/hw/ifwi/ifwi_items.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"

namespace wavescope::hw::ifwi {

// An image with its identity, structure, validation findings and PSP recovery items.
struct ImageReport {
  std::string file;  // as the user named it
  std::size_t size = 0;
  std::string sha256;
  ImageCheck check;
  std::vector<IfwiItemResolution> items;
};

ImageReport inspect_image(std::span<const std::uint8_t> image, std::string file);

std::string to_json(const ImageReport &report);
std::string to_text(const ImageReport &report);
// The layout alone (EFS, $PSP directories, $SGN, ISH, partitions).
std::string to_json(const IfwiLayout &layout);
std::string to_text(const IfwiLayout &layout);

// A synthesized test image as written.
struct TestImageReport {
  std::string output;
  std::size_t size = 0;
  std::string sha256;
  TestImageOptions options;
};

std::string to_json(const TestImageReport &report);
std::string to_text(const TestImageReport &report);

}  // namespace wavescope::hw::ifwi
