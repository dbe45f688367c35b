// libFuzzer target: arbitrary bytes as a capture folder's meta.json (format sqtt-corpus/1), opened
// as the app and `wavectl sqtt` open one. Before each open the harness creates, in its own
// folder, a zero-filled file of the listed size for every plain file name the input lists
// (programs, sqtt, pmc; at most 1 MiB each), so the reader gets past its existence and size checks
// to the fields after them. wavescope::Error(BadInput), or Mismatch from the checksum check, is
// the clean outcome; a crash or any other exception is a bug: abort.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path &folder() {
  static const fs::path path = [] {
    auto p = fs::temp_directory_path() / ("wavescope-fuzz-capture-" + std::to_string(getpid()));
    fs::create_directories(p);
    return p;
  }();
  return path;
}

// The files the input lists, made to exist with their listed sizes.
std::vector<fs::path> make_listed_files(std::string_view text) {
  std::vector<fs::path> made;
  const auto meta = nlohmann::json::parse(text, nullptr, false);
  if (!meta.is_object()) return made;
  for (const char *list : {"programs", "sqtt", "pmc"}) {
    const auto it = meta.find(list);
    if (it == meta.end() || !it->is_array()) continue;
    for (const auto &entry : *it) {
      if (!entry.is_object() || !entry.contains("file") || !entry["file"].is_string()) continue;
      const auto name = entry["file"].get<std::string>();
      if (name.empty() || name.size() > 64 || name.find('/') != std::string::npos ||
          name.find('\0') != std::string::npos || name == "." || name == ".." ||
          name == "meta.json")
        continue;
      const std::uint64_t size =
          entry.contains("size") && entry["size"].is_number_unsigned()
              ? std::min<std::uint64_t>(entry["size"].get<std::uint64_t>(), 1 << 20)
              : 0;
      const auto path = folder() / name;
      std::ofstream(path, std::ios::binary | std::ios::trunc).close();
      std::error_code ec;
      fs::resize_file(path, size, ec);
      made.push_back(path);
    }
  }
  return made;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  std::ofstream(folder() / "meta.json", std::ios::binary | std::ios::trunc) << text;
  const auto made = make_listed_files(text);
  try {
    const auto capture = trace::Capture::open(folder());
    capture.verify_checksums();
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput && e.kind() != ErrorKind::Mismatch) std::abort();
  }
  std::error_code ec;
  for (const auto &path : made) fs::remove(path, ec);
  return 0;
}
