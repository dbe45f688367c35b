// Replays files (or every file under a folder) through LLVMFuzzerTestOneInput, for builds without
// libFuzzer: regressions found by fuzzing stay tested in the ordinary test run.

#include <cstdint>
#include <cstdio>
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
    const std::filesystem::path arg = argv[i];
    if (std::filesystem::is_directory(arg)) {
      for (const auto &entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) replay(entry.path());
    } else if (std::filesystem::exists(arg)) {
      replay(arg);
    } else {
      std::fprintf(stderr, "skipped: %s does not exist\n", argv[i]);
    }
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}
