#pragma once
// The corpus captures by the names tinygrad's amd-sqtt pickles and the .rgp files carry
// ("gfx1100_gemm"), and the capture folder under sqtt/ each comes from ("gfx1100/gemm").

#include <array>
#include <string>

namespace wavescope::testing {

inline constexpr std::array<const char *, 12> kSqttPickles = {
    "gfx1100_empty", "gfx1100_gemm", "gfx1100_plus",        "gfx1100_sync",
    "gfx1200_empty", "gfx1200_gemm", "gfx1200_handwritten", "gfx1200_plus",
    "gfx1200_sync",  "gfx950_empty", "gfx950_gemm",         "gfx950_plus"};

// rgptool writes no CDNA files.
inline constexpr std::array<const char *, 9> kRgpFiles = {
    "gfx1100_empty", "gfx1100_gemm",        "gfx1100_plus", "gfx1100_sync", "gfx1200_empty",
    "gfx1200_gemm",  "gfx1200_handwritten", "gfx1200_plus", "gfx1200_sync"};

inline std::string folder_of(const std::string &name) {
  const auto underscore = name.find('_');
  return name.substr(0, underscore) + "/" + name.substr(underscore + 1);
}

inline void replace_all(std::string &text, const std::string &from, const std::string &to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
}

}  // namespace wavescope::testing
