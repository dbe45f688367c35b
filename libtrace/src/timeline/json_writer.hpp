#pragma once
// JsonWriter: appends compact JSON to a string exactly as json_line(nlohmann::json) prints it,
// without building the nlohmann object first. For printers of many small objects (one per wave,
// one per blob), where the DOM's maps and allocations cost more than the analysis.
//
// The caller writes an object's keys in byte order (the order nlohmann's std::map prints them);
// numbers are integers; strings of plain printable ASCII are copied, any other string is
// escaped by nlohmann itself, so the escaping (and the invalid UTF-8 replacement) is its own.

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"

namespace wavescope::trace::timeline {

class JsonWriter {
public:
  explicit JsonWriter(std::string &out) : out_(out) {}

  // Containers. Inside an object every value is preceded by key(); inside an array not.
  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  JsonWriter &key(std::string_view name) {
    separate();
    out_ += '"';
    out_ += name;  // keys are literals of plain ASCII
    out_ += "\":";
    after_key_ = true;
    return *this;
  }

  // Values.
  template <std::integral T>
  requires(!std::same_as<T, bool>) void value(T v) {
    separate();
    const fmt::format_int text(v);
    out_.append(text.data(), text.size());
  }
  void value(bool v) {
    separate();
    out_ += v ? "true" : "false";
  }
  void value(std::nullptr_t) {
    separate();
    out_ += "null";
  }
  void value(std::string_view s) {
    separate();
    for (const char c : s) {
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        out_ += json_line(nlohmann::json(std::string(s)));
        return;
      }
    }
    out_ += '"';
    out_ += s;
    out_ += '"';
  }
  void value(const char *s) { value(std::string_view(s)); }

  // key(name).value(v) in one call.
  template <typename T> void field(std::string_view name, const T &v) {
    key(name);
    value(v);
  }

private:
  void open(char c) {
    separate();
    out_ += c;
    first_ = true;
  }
  void close(char c) {
    out_ += c;
    first_ = false;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }

  std::string &out_;
  bool first_ = true;       // nothing written yet in the innermost container
  bool after_key_ = false;  // a key was written; its value follows without a comma
};

}  // namespace wavescope::trace::timeline
