#pragma once
// Opening a profile from any file wavescope reads as one, told apart by content (today: a
// tinygrad profile pickle).

#include <filesystem>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// Throws Error(BadInput) naming the file (and the offset, for malformed content).
Profile open_profile(const std::filesystem::path &path);

}  // namespace wavescope::trace::profile
