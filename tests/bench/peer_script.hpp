#pragma once
// A peer's tool run beside a benchmark (tinygrad's decoder, lowering, CPU backend): the script
// runs through the shell and prints one JSON line of figures. When it cannot run or prints none,
// the reason goes to stderr once and the benchmark reports no ratio against it.

#include <cstdio>
#include <optional>
#include <string>

#include <sys/wait.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wavescope::bench {

inline std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Runs `command` and returns the first line it printed, parsed; nothing (said on stderr, naming
// `script`) when it fails.
inline std::optional<nlohmann::json> run_peer_script(const std::string &script,
                                                     const std::string &command) {
  std::string output;
  FILE *pipe = ::popen(command.c_str(), "r");
  if (pipe) {
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
      output.append(buffer, n);
  }
  const int status = pipe ? ::pclose(pipe) : -1;
  if (status != 0) {
    fmt::print(stderr, "{} failed ({}): no x_tinygrad\n", script,
               status == -1          ? std::string("could not run python3")
               : WIFEXITED(status)   ? fmt::format("exit {}", WEXITSTATUS(status))
               : WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                     : fmt::format("status {}", status));
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(output.substr(0, output.find('\n')));
  } catch (const std::exception &e) {
    fmt::print(stderr, "{} printed no figures ({}): no x_tinygrad\n", script, e.what());
    return std::nullopt;
  }
}

}  // namespace wavescope::bench
