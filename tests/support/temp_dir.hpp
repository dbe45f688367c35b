#pragma once
// A fresh directory under the system temp dir, removed at the end of the test, so tests that
// create lock files or images never collide with a concurrent run.

#include <filesystem>
#include <random>
#include <string>

namespace wavescope::testing {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("wavescope-test-" + std::to_string(rd()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

}  // namespace wavescope::testing
