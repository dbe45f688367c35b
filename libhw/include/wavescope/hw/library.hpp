#pragma once
// Identification of the wavescope hw library (placeholder until its first module lands).

namespace wavescope::hw {
const char *library_version();
}
