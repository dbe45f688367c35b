#pragma once
// Numbers typed by users (CLI options, fault specs, simulator settings): decimal or 0x-prefixed
// hex, nothing else. A leading 0 is not octal, since "010" from a bring-up engineer means ten.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace wavescope {

inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const char *end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace wavescope
