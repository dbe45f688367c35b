// Capture: opening one from any source, and what every capture can answer.

#include "wavescope/trace/capture.hpp"

#include <memory>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/trace/profile/profile_capture.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"
#include "wavescope/trace/rgp/rgp_capture.hpp"

namespace wavescope::trace {
namespace {

// The first bytes of a file, to tell its format by its content rather than its name.
std::vector<std::uint8_t> head_of(const std::filesystem::path &path) {
  const auto size = std::filesystem::file_size(path);
  return ByteSource::file_range(path, 0, std::min<std::uint64_t>(size, 16)).read_all();
}

}  // namespace

unsigned DeviceProperties::shader_engines() const {
  return simd_arrays_per_engine ? array_count / simd_arrays_per_engine / (num_xcc ? num_xcc : 1)
                                : 0;
}

Capture Capture::open(const std::filesystem::path &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || path.filename() == "meta.json")
    return open_folder(path);
  const auto head = head_of(path);
  if (profile::looks_like_pickle(head))
    return profile::capture_of(profile::read_tinygrad_profile(path));
  if (rgp::looks_like_rgp(head)) return rgp::capture_of(rgp::read_rgp(path));
  throw_bad_input(fmt::format("{}: not a capture: neither a capture folder (with meta.json), a "
                              "tinygrad profile pickle nor an .rgp file",
                              path.string()));
}

const CaptureProgram *Capture::program(std::uint32_t tag) const {
  for (const auto &p : programs)
    if (p.tag == tag) return &p;
  return nullptr;
}

void Capture::verify_checksums() const {
  for (const auto &b : blobs) {
    if (b.sha256.empty()) continue;
    const auto actual = sha256_hex(b.bytes);
    if (actual != b.sha256)
      throw Error(ErrorKind::Mismatch, fmt::format("{}: SHA-256 is {}, the capture records {}",
                                                   b.bytes.describe(), actual, b.sha256));
  }
}

}  // namespace wavescope::trace
