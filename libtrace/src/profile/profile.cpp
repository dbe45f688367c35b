#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

const char *to_string(AccessMode mode) {
  switch (mode) {
  case AccessMode::Read: return "read";
  case AccessMode::Write: return "write";
  case AccessMode::ReadWrite: return "write+read";
  }
  return "?";
}

const Track *Profile::track(std::string_view name) const {
  for (const auto &t : tracks)
    if (t.name == name) return &t;
  return nullptr;
}

const Device *Profile::device(std::string_view name) const {
  for (const auto &d : devices)
    if (d.name == name) return &d;
  return nullptr;
}

std::size_t Profile::span_count() const {
  std::size_t n = 0;
  for (const auto &t : tracks) n += t.spans.size();
  return n;
}

const Device *Profile::gpu() const {
  for (const auto &d : devices)
    if (d.gfx_target_version) return &d;
  return nullptr;
}

std::string plain_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == ';')) ++j;
      if (j < text.size() && text[j] == 'm') {
        i = j;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace wavescope::trace::profile
