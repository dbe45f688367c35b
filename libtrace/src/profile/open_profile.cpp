#include "wavescope/trace/profile/open_profile.hpp"

#include <fmt/format.h>

#include "wavescope/base/byte_source.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"

namespace wavescope::trace::profile {

Profile open_profile(const std::filesystem::path &path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_bad_input(fmt::format("{}: is a folder, not a profile file", path.string()));
  const auto source = ByteSource::whole_file(path);
  const auto head = source.slice(0, std::min<std::uint64_t>(source.size(), 16)).read_all();
  if (looks_like_pickle(head)) return read_tinygrad_profile(path);
  throw_bad_input(fmt::format("{}: not a profile: not a tinygrad profile pickle", path.string()));
}

}  // namespace wavescope::trace::profile
