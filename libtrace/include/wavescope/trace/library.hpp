#pragma once
// Identification of the wavescope trace library (placeholder until its first module lands).

namespace wavescope::trace {
const char *library_version();
}
