#pragma once
// Runs the wavectl binary under test.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "process.hpp"

namespace wavescope::testing {

inline ProcessResult wavectl(std::vector<std::string> args,
                             const std::vector<std::string> &env = {}) {
  args.insert(args.begin(), WAVECTL_BINARY);
  return run_process(args, env);
}

// Parses every line of `text` as a JSON object.
inline std::vector<nlohmann::json> json_lines(const std::string &text) {
  std::vector<nlohmann::json> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(nlohmann::json::parse(text.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

}  // namespace wavescope::testing
