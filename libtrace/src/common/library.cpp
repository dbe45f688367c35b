#include "wavescope/trace/library.hpp"

#include "wavescope/base/version.hpp"

namespace wavescope::trace {
const char *library_version() { return kVersion; }
}
