#include "wavescope/hw/library.hpp"

#include "wavescope/base/version.hpp"

namespace wavescope::hw {
const char *library_version() { return kVersion; }
}
