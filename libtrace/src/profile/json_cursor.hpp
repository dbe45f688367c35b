#pragma once
// A forward-only JSON scanner over bytes in memory, for reading traces of millions of events at
// hundreds of MB/s without building a document: the caller walks objects and arrays, takes the
// values it wants and skips the rest. Strings without escapes are views of the input; numbers
// are their text, so times convert exactly. Malformed input throws Error(BadInput) naming the
// source and byte offset; nesting is limited, so no input recurses without bound (there is no
// recursion at all).

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/utf8.hpp"

namespace wavescope::trace::profile::detail {

class JsonCursor {
public:
  JsonCursor(const char *begin, const char *end, std::string source)
      : begin_(begin), p_(begin), end_(end), source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string &what) const { fail_at(offset(), what); }
  [[noreturn]] void fail_at(std::uint64_t at, const std::string &what) const {
    throw_bad_input(fmt::format("{}: byte {} (0x{:x}): {}", source_, at, at, what));
  }
  std::uint64_t offset() const { return static_cast<std::uint64_t>(p_ - begin_); }
  bool at_end() {
    skip_ws();
    return p_ >= end_;
  }
  char peek() {
    skip_ws();
    if (p_ >= end_) fail("the JSON ends here");
    return *p_;
  }
  bool consume(char c) {
    skip_ws();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) {
      if (p_ >= end_) fail(fmt::format("the JSON ends where '{}' was expected", c));
      fail(fmt::format("'{}' expected, found '{}'", c, printable(*p_)));
    }
  }

  // A string; `scratch` holds it when it has escapes, otherwise the view is of the input.
  std::string_view string(std::string &scratch) {
    skip_ws();
    if (p_ >= end_ || *p_ != '"') fail("a string expected");
    ++p_;
    const char *start = p_;
    // Fast path: find the closing quote; escapes send us the slow way.
    for (;;) {
      const void *q = std::memchr(p_, '"', static_cast<std::size_t>(end_ - p_));
      if (!q) fail_at(static_cast<std::uint64_t>(start - 1 - begin_), "an unterminated string");
      const char *quote = static_cast<const char *>(q);
      if (!std::memchr(p_, '\\', static_cast<std::size_t>(quote - p_))) {
        p_ = quote + 1;
        return {start, static_cast<std::size_t>(quote - start)};
      }
      break;
    }
    scratch.clear();
    for (;;) {
      if (p_ >= end_)
        fail_at(static_cast<std::uint64_t>(start - 1 - begin_), "an unterminated string");
      const char c = *p_++;
      if (c == '"') return scratch;
      if (c != '\\') {
        scratch += c;
        continue;
      }
      if (p_ >= end_) fail("an unterminated escape");
      const char e = *p_++;
      switch (e) {
      case '"': scratch += '"'; break;
      case '\\': scratch += '\\'; break;
      case '/': scratch += '/'; break;
      case 'b': scratch += '\b'; break;
      case 'f': scratch += '\f'; break;
      case 'n': scratch += '\n'; break;
      case 'r': scratch += '\r'; break;
      case 't': scratch += '\t'; break;
      case 'u': {
        std::uint32_t cp = hex4();
        if (cp >= 0xD800 && cp < 0xDC00 && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
          p_ += 2;
          const std::uint32_t low = hex4();
          if (low >= 0xDC00 && low < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(scratch, cp);
        break;
      }
      default: fail(fmt::format("an unknown escape \\{}", printable(e)));
      }
    }
  }

  // A number's text (validated loosely: sign, digits, point, exponent).
  std::string_view number() {
    skip_ws();
    const char *start = p_;
    if (p_ < end_ && (*p_ == '-' || *p_ == '+')) ++p_;
    while (p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == 'e' || *p_ == 'E' ||
                         ((*p_ == '-' || *p_ == '+') && (p_[-1] == 'e' || p_[-1] == 'E'))))
      ++p_;
    if (p_ == start || (p_ == start + 1 && (*start == '-' || *start == '+')))
      fail("a number expected");
    return {start, static_cast<std::size_t>(p_ - start)};
  }

  // true, false or null: returns the literal's first letter.
  char literal() {
    skip_ws();
    for (const char *word : {"true", "false", "null"}) {
      const std::size_t n = std::strlen(word);
      if (static_cast<std::size_t>(end_ - p_) >= n && std::memcmp(p_, word, n) == 0) {
        p_ += n;
        return word[0];
      }
    }
    fail("a value expected");
  }

  // Skips one value of any kind; returns its text.
  std::string_view skip_value() {
    skip_ws();
    const char *start = p_;
    std::string scratch;
    unsigned depth = 0;
    for (;;) {
      skip_ws();
      if (p_ >= end_) fail("the JSON ends inside a value");
      const char c = *p_;
      if (c == '{' || c == '[') {
        if (++depth > kMaxDepth) fail(fmt::format("values nest deeper than {} levels", kMaxDepth));
        ++p_;
        continue;
      }
      if (c == '}' || c == ']') {
        if (depth == 0) fail(fmt::format("an unexpected '{}'", c));
        ++p_;
        if (--depth == 0) break;
        continue;
      }
      if (c == ',' || c == ':') {
        if (depth == 0) fail(fmt::format("an unexpected '{}'", c));
        ++p_;
        continue;
      }
      if (c == '"')
        string(scratch);
      else if (c == '-' || (c >= '0' && c <= '9'))
        number();
      else
        literal();
      if (depth == 0) break;
    }
    return {start, static_cast<std::size_t>(p_ - start)};
  }

  const char *position() const { return p_; }

private:
  static constexpr unsigned kMaxDepth = 512;

  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  std::uint32_t hex4() {
    if (end_ - p_ < 4) fail("a truncated \\u escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        fail("a malformed \\u escape");
    }
    return v;
  }
  static std::string printable(char c) {
    if (c >= 0x20 && c < 0x7f) return std::string(1, c);
    return fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
  }

  const char *begin_;
  const char *p_;
  const char *end_;
  std::string source_;
};

}  // namespace wavescope::trace::profile::detail
