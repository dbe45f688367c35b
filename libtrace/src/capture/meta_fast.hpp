// meta.json's fast reader (simdjson), beside the nlohmann reader of capture_folder.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wavescope::trace::detail {

// One sqtt[] entry of meta.json, read straight from the parser, each member of the type the
// capture reader takes.
struct BlobEntry {
  std::string file, program, sha256;
  std::uint64_t order = 0, se = 0, kern = 0, size = 0;
  bool itrace = false, synthetic_header = false;
  bool has_file = false, has_order = false, has_se = false, has_kern = false, has_size = false;
};

// Bytes a text read for read_meta_fast keeps past its end (its capacity() - size()) so the
// parser need not copy it: simdjson reads up to this far past the end.
inline constexpr std::size_t kMetaPadding = 64;

// Reads meta.json's text with simdjson: `meta` gets the top-level members the reader uses other
// than "sqtt" (as nlohmann values), `entries` the sqtt entries. Returns false, with `meta` and
// `entries` in no particular state, for anything it does not take as it is: text simdjson
// rejects, a member of another type than the reader takes, a required member missing, a
// non-object entry, a second "sqtt", a \uD800-\uDFFF escape. The caller then reads the text
// with nlohmann, whose errors the reader reports; so whatever this accepts, nlohmann accepts
// too, with the same values.
bool read_meta_fast(const std::string &text, nlohmann::json &meta, std::vector<BlobEntry> &entries);

}  // namespace wavescope::trace::detail
