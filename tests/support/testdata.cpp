#include "testdata.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace wavescope::testing {

std::filesystem::path testdata_root() {
  if (const char *env = std::getenv("WAVESCOPE_TESTDATA"); env && *env) return env;
  return WAVESCOPE_DEFAULT_TESTDATA;
}

std::filesystem::path source_root() { return WAVESCOPE_SOURCE_DIR; }

bool running_in_ci() {
  const char *ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

std::vector<unsigned char> read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::filesystem::path> sqtt_capture_dirs() {
  std::vector<std::filesystem::path> dirs;
  const auto root = testdata_root() / "sqtt";
  if (!std::filesystem::is_directory(root)) return dirs;
  for (const auto &arch : std::filesystem::directory_iterator(root)) {
    if (!arch.is_directory()) continue;
    for (const auto &example : std::filesystem::directory_iterator(arch.path()))
      if (std::filesystem::exists(example.path() / "meta.json")) dirs.push_back(example.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace wavescope::testing

#include <zlib.h>

namespace wavescope::testing {

std::vector<std::string> read_gz_lines(const std::filesystem::path &path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open " + path.string());
  std::vector<std::string> lines;
  std::string current;
  char buffer[1 << 16];
  while (gzgets(file, buffer, sizeof buffer)) {
    current += buffer;
    if (!current.empty() && current.back() == '\n') {
      current.pop_back();
      lines.push_back(std::move(current));
      current.clear();
    }
  }
  const bool clean = gzeof(file);
  gzclose(file);
  if (!clean) throw std::runtime_error("read error in " + path.string());
  if (!current.empty()) lines.push_back(std::move(current));
  return lines;
}

}  // namespace wavescope::testing

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wavescope::testing {

std::vector<CorpusProgram> corpus_programs() {
  std::vector<CorpusProgram> programs;
  auto hex = [](const nlohmann::json &j) { return std::stoull(j.get<std::string>(), nullptr, 16); };
  for (const auto &dir : sqtt_capture_dirs()) {
    std::ifstream in(dir / "meta.json");
    const auto meta = nlohmann::json::parse(in);
    const unsigned version = meta["device"]["props"]["gfx_target_version"].get<unsigned>();
    const std::string target =
        fmt::format("gfx{}{:x}{:x}", version / 10000, (version / 100) % 100, version % 100);
    for (const auto &p : meta["programs"]) {
      CorpusProgram program;
      program.elf = dir / p["file"].get<std::string>();
      program.capture = dir;
      program.name = p["name"].get<std::string>();
      program.target = target;
      program.text_address = hex(p["text"]["addr"]);
      program.text_size = p["text"]["size"].get<std::uint64_t>();
      program.entry_pc = hex(p["entry_pc"]);
      program.num_insts = p["num_insts"].get<unsigned>();
      programs.push_back(std::move(program));
    }
  }
  return programs;
}

}  // namespace wavescope::testing
