#pragma once
// The SQTT corpus as the trace tests see it: every capture with its meta.json, blobs as bytes,
// and the reference decodes grouped per blob. Header-only (the trace tests glob test_*.cpp).

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "wavescope/base/byte_source.hpp"

#include <nlohmann/json.hpp>

#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"

namespace wavescope::testing::sqtt {

struct CorpusCapture {
  std::filesystem::path dir;
  trace::Capture capture;
  nlohmann::json meta;

  // meta.json's sqtt[] entry for a blob file name.
  const nlohmann::json &blob_meta(const std::string &file) const {
    for (const auto &b : meta.at("sqtt"))
      if (b.at("file") == file) return b;
    throw std::runtime_error("no meta entry for " + file);
  }
};

inline std::vector<CorpusCapture> corpus_captures() {
  std::vector<CorpusCapture> out;
  for (const auto &dir : sqtt_capture_dirs()) {
    std::ifstream in(dir / "meta.json");
    out.push_back({dir, trace::Capture::open(dir), nlohmann::json::parse(in)});
  }
  return out;
}

// The lines of one of a capture's *.jsonl.gz files, parsed and grouped by their "blob".
inline std::map<std::string, std::vector<nlohmann::json>>
jsonl_by_blob(const std::filesystem::path &file) {
  std::map<std::string, std::vector<nlohmann::json>> out;
  for (const auto &line : read_gz_lines(file)) {
    auto j = nlohmann::json::parse(line);
    const std::string blob = j.at("blob");
    out[blob].push_back(std::move(j));
  }
  return out;
}

inline std::vector<std::uint8_t> blob_bytes(const std::filesystem::path &file) {
  const auto bytes = read_file(file);
  return {bytes.begin(), bytes.end()};
}

inline std::vector<std::uint8_t> blob_bytes(const wavescope::ByteSource &source) {
  return source.read_all();
}

}  // namespace wavescope::testing::sqtt
