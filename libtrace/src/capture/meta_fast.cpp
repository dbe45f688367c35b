// meta.json through simdjson's DOM parser: the blob list of a capture of many thousand blobs
// without nlohmann's character-at-a-time lexer (docs/sqtt.md, "Performance").
//
// The DOM parser, not On-Demand: On-Demand checks only the values it is asked for, so a member
// nothing reads (per blob, the reference decode's figures: two thirds of meta.json) could be
// malformed JSON and still be taken, where nlohmann (and so the reader) rejects the file.
// simdjson's DOM parser validates the whole text, as strictly as nlohmann.

#include "meta_fast.hpp"

#include <cstring>
#include <string_view>

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace wavescope::trace::detail {
namespace {

using nlohmann::json;
using simdjson::dom::element;
using simdjson::dom::element_type;

static_assert(kMetaPadding >= simdjson::SIMDJSON_PADDING);

// A value as nlohmann's parser builds it: non-negative integers unsigned, negative ones signed.
json to_nlohmann(element e) {
  switch (e.type()) {
  case element_type::ARRAY: {
    json out = json::array();
    for (const element v : simdjson::dom::array(e)) out.push_back(to_nlohmann(v));
    return out;
  }
  case element_type::OBJECT: {
    json out = json::object();
    for (const auto field : simdjson::dom::object(e))
      out[std::string(field.key)] = to_nlohmann(field.value);  // a repeated key: the last counts
    return out;
  }
  case element_type::INT64: {
    const std::int64_t v = int64_t(e);
    return v >= 0 ? json(static_cast<std::uint64_t>(v)) : json(v);
  }
  case element_type::UINT64: return json(std::uint64_t(e));
  case element_type::DOUBLE: return json(double(e));
  case element_type::STRING: return json(std::string(std::string_view(e)));
  case element_type::BOOL: return json(bool(e));
  case element_type::NULL_VALUE: return json(nullptr);
  }
  return json();
}

template <typename T> bool take(element value, T &member, bool *has = nullptr) {
  if (value.get(member) != simdjson::SUCCESS) return false;
  if (has) *has = true;
  return true;
}
bool take_string(element value, std::string &member, bool *has = nullptr) {
  std::string_view text;
  if (value.get(text) != simdjson::SUCCESS) return false;
  member.assign(text);
  if (has) *has = true;
  return true;
}

bool read_entry(element value, BlobEntry &entry) {
  simdjson::dom::object object;
  if (value.get(object) != simdjson::SUCCESS) return false;
  for (const auto field : object) {
    const std::string_view k = field.key;
    const element v = field.value;
    bool ok = true;
    if (k == "file")
      ok = take_string(v, entry.file, &entry.has_file);
    else if (k == "order")
      ok = take(v, entry.order, &entry.has_order);
    else if (k == "se")
      ok = take(v, entry.se, &entry.has_se);
    else if (k == "kern")
      ok = take(v, entry.kern, &entry.has_kern);
    else if (k == "program")
      ok = take_string(v, entry.program);
    else if (k == "itrace")
      ok = take(v, entry.itrace);
    else if (k == "size")
      ok = take(v, entry.size, &entry.has_size);
    else if (k == "sha256")
      ok = take_string(v, entry.sha256);
    else if (k == "synthetic_header")
      ok = take(v, entry.synthetic_header);
    if (!ok) return false;
  }
  return entry.has_file && entry.has_se && entry.has_kern && entry.has_size;
}

// A \uD800-\uDFFF escape: nlohmann rejects a surrogate that is not half of a pair, and simdjson
// 3.0 is not as strict about a lone low one.
bool has_surrogate_escape(std::string_view text) {
  for (std::size_t at = text.find("\\u"); at != std::string_view::npos;
       at = text.find("\\u", at + 2))
    if (at + 2 < text.size() && (text[at + 2] == 'd' || text[at + 2] == 'D')) return true;
  return false;
}

}  // namespace

bool read_meta_fast(const std::string &text, json &meta, std::vector<BlobEntry> &entries) {
  if (has_surrogate_escape(text)) return false;
  simdjson::dom::parser parser;
  const bool padded = text.capacity() - text.size() >= simdjson::SIMDJSON_PADDING;
  element root;
  if (parser.parse(text.data(), text.size(), !padded).get(root) != simdjson::SUCCESS) return false;
  simdjson::dom::object top;
  if (root.get(top) != simdjson::SUCCESS) return false;
  meta = json::object();
  bool sqtt_seen = false;
  for (const auto field : top) {
    const std::string_view k = field.key;
    if (k == "sqtt") {
      if (sqtt_seen) return false;  // the document's last one counts: the reader decides
      sqtt_seen = true;
      simdjson::dom::array list;
      if (field.value.get(list) != simdjson::SUCCESS) return false;
      entries.clear();
      entries.reserve(list.size());
      for (const element value : list) {
        if (!read_entry(value, entries.emplace_back())) return false;
      }
    } else if (k == "format" || k == "example" || k == "arch" || k == "device" || k == "programs" ||
               k == "pmc") {
      meta[std::string(k)] = to_nlohmann(field.value);
    }
  }
  if (!sqtt_seen) return false;
  meta["sqtt"] = json::array();
  return true;
}

}  // namespace wavescope::trace::detail
