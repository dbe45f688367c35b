#include "wavescope/trace/profile/open_profile.hpp"

#include <fmt/format.h>

#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/profile_capture.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"

namespace wavescope::trace::profile {

Profile open_profile(const std::filesystem::path &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_bad_input(fmt::format("{}: is a folder, not a profile file", path.string()));
  const auto source = ByteSource::whole_file(path);
  const auto head = source.slice(0, std::min<std::uint64_t>(source.size(), 16)).read_all();
  if (looks_like_pickle(head)) return read_tinygrad_profile(path);
  if (looks_like_json(source.slice(0, std::min<std::uint64_t>(source.size(), 4096)).read_all()))
    return read_chrome_trace(path);
  throw_bad_input(fmt::format("{}: not a profile: neither a tinygrad profile pickle nor a "
                              "Chrome/Perfetto trace JSON",
                              path.string()));
}

ProfileSource open_profile_source(const std::filesystem::path &path) {
  ProfileSource s;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) || path.filename() == "meta.json") {
    s.capture = Capture::open_folder(path);
    s.profile.source = s.capture->source;
    s.profile.format = "capture folder";
    return s;
  }
  s.profile = open_profile(path);
  if (has_capture(s.profile)) s.capture = capture_of(s.profile);
  return s;
}

}  // namespace wavescope::trace::profile
