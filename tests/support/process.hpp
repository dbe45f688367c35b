#pragma once
// Running a program from a test and capturing what it printed.

#include <string>
#include <vector>

namespace wavescope::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `argv` (no shell), waits for it, and returns its exit code and output. `env` entries
// ("NAME=value") are added to the environment.
ProcessResult run_process(const std::vector<std::string> &argv,
                          const std::vector<std::string> &env = {});

}  // namespace wavescope::testing
