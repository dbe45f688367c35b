#include "support_regdb/kernel_headers.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_map>

#ifndef WAVESCOPE_BINARY_DIR
#define WAVESCOPE_BINARY_DIR "."
#endif

namespace wavescope::testing {
namespace {

const char *kTarball = "/usr/src/linux-source-6.12.tar.xz";
const char *kAsicReg = "drivers/gpu/drm/amd/include/asic_reg";

std::string read_text(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every "#define NAME VALUE" of a header with a numeric VALUE (suffixes U/L dropped), in order.
std::vector<std::pair<std::string, std::uint64_t>> defines(const std::string &text) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string hash, name, value;
    if (!(words >> hash >> name >> value) || hash != "#define") continue;
    while (!value.empty() && (value.back() == 'L' || value.back() == 'U' || value.back() == 'l' ||
                              value.back() == 'u'))
      value.pop_back();
    char *end = nullptr;
    const auto v = std::strtoull(value.c_str(), &end, 0);
    if (value.empty() || *end != '\0') continue;
    out.emplace_back(name, v);
  }
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>> &regdb_header_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"gc", "gc_9_4_3"},       {"gc", "gc_11_0_0"},      {"gc", "gc_11_0_3"},
      {"gc", "gc_11_5_0"},      {"gc", "gc_12_0_0"},      {"mmhub", "mmhub_1_8_0"},
      {"mmhub", "mmhub_3_0_0"}, {"mmhub", "mmhub_3_0_1"}, {"mmhub", "mmhub_3_0_2"},
      {"mmhub", "mmhub_3_3_0"}, {"mmhub", "mmhub_4_1_0"}, {"nbio", "nbio_4_3_0"},
      {"nbio", "nbio_7_2_0"},   {"nbio", "nbio_7_7_0"},   {"nbio", "nbio_7_9_0"},
      {"nbio", "nbio_7_11_0"},  {"nbif", "nbif_6_3_1"},   {"mp", "mp_11_0"},
      {"mp", "mp_13_0_0"},      {"mp", "mp_14_0_2"},      {"hdp", "hdp_4_4_2"},
      {"hdp", "hdp_6_0_0"},     {"hdp", "hdp_7_0_0"},     {"oss", "osssys_4_4_2"},
      {"oss", "osssys_6_0_0"},  {"oss", "osssys_6_1_0"},  {"oss", "osssys_7_0_0"},
      {"sdma", "sdma_4_4_2"},
  };
  return pairs;
}

std::optional<std::filesystem::path> kernel_asic_reg_dir(std::string &why_not) {
  namespace fs = std::filesystem;
  if (!fs::exists(kTarball)) {
    why_not = std::string(kTarball) + " not found (apt-get install linux-source-6.12)";
    return std::nullopt;
  }
  const fs::path root = fs::path(WAVESCOPE_BINARY_DIR) / "regdb-kernel-headers";
  const fs::path dir = root / "linux-source-6.12" / kAsicReg;
  const fs::path stamp = root / "extracted";
  if (!fs::exists(stamp)) {
    fs::create_directories(root);
    std::string cmd =
        "tar -xJf " + std::string(kTarball) + " -C '" + root.string() + "' --wildcards";
    for (const auto &[d, stem] : regdb_header_pairs())
      for (const char *kind : {"offset", "sh_mask"})
        cmd += " '*/" + std::string(kAsicReg) + "/" + d + "/" + stem + "_" + kind + ".h'";
    if (std::system(cmd.c_str()) != 0) {
      why_not = "extracting the headers failed: " + cmd;
      return std::nullopt;
    }
    std::ofstream(stamp) << "ok\n";
  }
  return dir;
}

std::vector<HeaderRegister> parse_header_pair(const std::filesystem::path &asic_reg,
                                              const std::string &dir, const std::string &stem) {
  const auto offsets = defines(read_text(asic_reg / dir / (stem + "_offset.h")));
  const auto masks = defines(read_text(asic_reg / dir / (stem + "_sh_mask.h")));
  std::unordered_map<std::string, std::uint64_t> by_name(offsets.begin(), offsets.end());
  // Fields per register (the part before the first "__"), with their shifts.
  std::unordered_map<std::string, std::vector<HeaderField>> fields;
  std::unordered_map<std::string, unsigned> shifts;
  for (const auto &[name, value] : masks) {
    const std::string suffix = "__SHIFT";
    if (name.size() > suffix.size() && name.ends_with(suffix))
      shifts[name.substr(0, name.size() - suffix.size())] = static_cast<unsigned>(value);
  }
  for (const auto &[name, value] : masks) {
    const std::string suffix = "_MASK";
    const auto split = name.find("__");
    if (!name.ends_with(suffix) || split == std::string::npos || value == 0) continue;
    HeaderField f;
    const auto full = name.substr(0, name.size() - suffix.size());
    f.name = full.substr(split + 2);
    f.mask = value;
    const auto s = shifts.find(full);
    f.has_shift = s != shifts.end();
    if (f.has_shift) f.shift = s->second;
    fields[name.substr(0, split)].push_back(f);
  }
  std::vector<HeaderRegister> out;
  for (const auto &[name, value] : offsets) {
    const auto base = by_name.find(name + "_BASE_IDX");
    if (base == by_name.end()) continue;
    std::string bare;
    if (name.rfind("reg", 0) == 0)
      bare = name.substr(3);
    else if (name.rfind("mm", 0) == 0)
      bare = name.substr(2);
    else
      continue;
    HeaderRegister r{name, value, static_cast<unsigned>(base->second), {}};
    if (const auto f = fields.find(bare); f != fields.end()) r.fields = f->second;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace wavescope::testing
