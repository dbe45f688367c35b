#pragma once
// The one-line form every --json printer emits: compact, no spaces, invalid UTF-8 replaced, so a
// stream of reports is one JSON object per line. Header-only: base itself does not depend on a
// JSON library; the libraries that print JSON (with nlohmann::json) use this form.

#include <string>

namespace wavescope {

template <typename Json> std::string json_line(const Json &object) {
  return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace wavescope
