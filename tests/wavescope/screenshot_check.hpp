#pragma once
// Runs `wavescope --screenshot` offscreen and checks that the picture is a real render.

#include <string>
#include <vector>

namespace wavescope::testing {

// Renders `view` of the app opened on `paths` into <build>/screenshots/<name>.png and checks the
// app exits 0 and the image is wide and varied (a blank or single-color render is not). `extra`
// arguments follow (e.g. --select "View Source").
void check_screenshot(const std::vector<std::string> &paths, const std::string &view,
                      const std::string &name, const std::vector<std::string> &extra = {});

}  // namespace wavescope::testing
