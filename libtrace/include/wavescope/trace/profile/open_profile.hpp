#pragma once
// Opening a profile from any file wavescope reads as one, told apart by content: a tinygrad
// profile pickle, or a Chrome/Perfetto trace JSON.

#include <filesystem>
#include <optional>

#include "wavescope/trace/capture.hpp"

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// Throws Error(BadInput) naming the file (and the offset, for malformed content).
Profile open_profile(const std::filesystem::path &path);

// Anything a profile export starts from: a profile file, a capture folder, or a profile that
// holds a capture (a tinygrad profile with SQTT/PMC events).
struct ProfileSource {
  Profile profile;
  std::optional<Capture> capture;
};
ProfileSource open_profile_source(const std::filesystem::path &path);

}  // namespace wavescope::trace::profile
