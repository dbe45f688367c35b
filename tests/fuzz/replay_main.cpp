// Replays files (or every file under a folder) through LLVMFuzzerTestOneInput, for builds without
// libFuzzer: regressions found by fuzzing stay tested in the ordinary test run. A replay of
// nothing (a missing or empty corpus) is not a pass: it exits 77, which CTest reports as skipped,
// or 1 under CI=true, where the corpus must be present.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv) {
  std::size_t replayed = 0;
  auto replay = [&](const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    ++replayed;
  };
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path arg = argv[i];
    // `--testdata DEFAULT`: the corpus root, $WAVESCOPE_TESTDATA when set (as the Catch tests).
    if (arg == "--testdata" && i + 1 < argc) {
      const char *env = std::getenv("WAVESCOPE_TESTDATA");
      const char *configured = argv[++i];
      arg = env && *env ? env : configured;
    }
    if (std::filesystem::is_directory(arg)) {
      for (const auto &entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) replay(entry.path());
    } else if (std::filesystem::exists(arg)) {
      replay(arg);
    } else {
      std::fprintf(stderr, "skipped: %s does not exist\n", arg.c_str());
    }
  }
  std::printf("replayed %zu inputs\n", replayed);
  if (replayed > 0) return 0;
  const char *ci = std::getenv("CI");
  if (ci && std::strcmp(ci, "true") == 0) {
    std::fprintf(stderr, "error: no inputs to replay under CI (set WAVESCOPE_TESTDATA)\n");
    return 1;
  }
  std::fprintf(stderr, "skipped: no inputs to replay (set WAVESCOPE_TESTDATA)\n");
  return 77;
}
