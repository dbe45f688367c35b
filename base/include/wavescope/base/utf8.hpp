#pragma once
// UTF-8 encoding of one code point, for the readers that decode escapes (pickle strings, JSON).

#include <cstdint>
#include <string>

namespace wavescope {

// Appends `cp` as UTF-8 (1 to 4 bytes; a caller has rejected what is not a code point).
void append_utf8(std::string &out, std::uint32_t cp);

}  // namespace wavescope
