#include "screenshot_check.hpp"

#include <catch2/catch.hpp>

#include <QImage>

#include <filesystem>
#include <set>

#include "process.hpp"

namespace wavescope::testing {

namespace {
// Distinct colors in a downsampled image: a blank or single-color render has very few.
std::size_t color_variety(const QImage &image) {
  std::set<QRgb> colors;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4) colors.insert(image.pixel(x, y));
  return colors.size();
}
}  // namespace

void check_screenshot(const std::vector<std::string> &paths, const std::string &view,
                      const std::string &name, const std::vector<std::string> &extra) {
  const std::filesystem::path shots(WAVESCOPE_BUILD_SCREENSHOTS);
  std::filesystem::create_directories(shots);
  const auto out = shots / (name + ".png");
  std::filesystem::remove(out);
  std::vector<std::string> argv = {WAVESCOPE_APP_BINARY};
  argv.insert(argv.end(), paths.begin(), paths.end());
  argv.insert(argv.end(), {"--screenshot", out.string(), "--view", view});
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = run_process(argv, {"QT_QPA_PLATFORM=offscreen"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  QImage image(QString::fromStdString(out.string()));
  REQUIRE(!image.isNull());
  CHECK(image.width() >= 800);
  CHECK(color_variety(image) > 40);
}

}  // namespace wavescope::testing
